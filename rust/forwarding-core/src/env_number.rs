//! A count the wrapper reads from an environment variable (the plan cache's
//! size, the handle workspace's cap): one rule for what is accepted.

/// A count from the raw value of `var`: unset or empty is `default`; a
/// decimal number is taken as is; anything else is an error message naming
/// the variable, its value and what it `accepts` (the caller warns once and
/// uses the default).
pub fn decimal_from_env(var: &str, value: Option<&str>, default: usize, accepts: &str) -> Result<usize, String> {
    let Some(raw) = value else {
        return Ok(default);
    };
    let v = raw.trim();
    if v.is_empty() {
        return Ok(default);
    }
    let refused = |what: &str| format!("{var}={raw:?} {what}; accepted values are {accepts}");
    if !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refused("is not recognised"));
    }
    v.parse::<usize>().map_err(|_| refused("is too large"))
}
