//! Values in the wrapper's messages, printed as MIOpen prints them, so a
//! value reads the same in the wrapper's line and in MIOpen's log beside it.
//!
//! MIOpen's call log writes each argument with `std::ostream <<`
//! (`LogParam`, `src/include/miopen/logger.hpp` @ ROCm/MIOpen 2d1fd997): a C
//! enum is promoted to `int` (a batchnorm mode of -1 prints `-1`, not the
//! `4294967295` of the `u32` the bindings carry), a `float` or `double` goes
//! through the stream's default format, C's `%g` with six significant
//! digits (`0`, `0.1`, `1e-05`, `1e+20`).

use std::fmt;

/// A C enum's value as MIOpen prints it: as a signed `int`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int(pub u32);

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The same 32 bits, read as C's int.
        write!(f, "{}", self.0 as i32)
    }
}

/// A floating-point value as a default `std::ostream` prints it (`%g`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct G(pub f64);

/// `%g`'s precision: significant digits.
const DIGITS: i32 = 6;

impl fmt::Display for G {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.is_nan() {
            return f.write_str(if v.is_sign_negative() { "-nan" } else { "nan" });
        }
        if v.is_infinite() {
            return f.write_str(if v < 0.0 { "-inf" } else { "inf" });
        }
        if v == 0.0 {
            return f.write_str(if v.is_sign_negative() { "-0" } else { "0" });
        }
        // The exponent after rounding to DIGITS significant digits decides
        // between the fixed and the scientific form, as %g says.
        let sci = format!("{:.*e}", (DIGITS - 1) as usize, v);
        let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
        let exponent: i32 = exponent.parse().unwrap_or(0);
        if (-4..DIGITS).contains(&exponent) {
            let fixed = format!("{:.*}", (DIGITS - 1 - exponent) as usize, v);
            f.write_str(without_trailing_zeros(&fixed))
        } else {
            let sign = if exponent < 0 { '-' } else { '+' };
            write!(f, "{}e{sign}{:02}", without_trailing_zeros(mantissa), exponent.abs())
        }
    }
}

/// `%g` drops trailing zeros of the fraction, and the point with them.
fn without_trailing_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enums_print_signed_as_c_promotes_them() {
        assert_eq!(Int(u32::MAX).to_string(), "-1");
        assert_eq!(Int(1).to_string(), "1");
        assert_eq!(Int(0x8000_0000).to_string(), "-2147483648");
        assert_ne!(Int(u32::MAX).to_string(), u32::MAX.to_string());
    }

    #[test]
    fn floats_print_as_percent_g() {
        // Each as printf("%g") prints it.
        let cases: [(f64, &str); 16] = [
            (0.0, "0"),
            (-0.0, "-0"),
            (0.1, "0.1"),
            (0.5, "0.5"),
            (1.0, "1"),
            (1e-5, "1e-05"),
            (1e-4, "0.0001"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (999999.5, "1e+06"),
            (1e20, "1e+20"),
            (-2.5e-7, "-2.5e-07"),
            (1e100, "1e+100"),
            (f64::from(0.1f32), "0.1"),
            (f64::INFINITY, "inf"),
            (f64::NAN, "nan"),
        ];
        for (v, want) in cases {
            assert_eq!(G(v).to_string(), want, "{v:e}");
        }
        // Not Rust's own forms.
        assert_ne!(G(1e-5).to_string(), format!("{}", 1e-5));
        assert_ne!(G(0.1).to_string(), format!("{:e}", 0.1));
    }
}
