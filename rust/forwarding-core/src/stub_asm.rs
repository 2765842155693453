//! The machine code of the wrapper's exported stubs, one template per ABI,
//! written once for the runtime (which assembles the fast path of every
//! typed stub with `naked_asm!`) and for `miopen-wrap generate` (which
//! emits the signature-free tail jumps of survivors and variadic entry
//! points with `global_asm!`).
//!
//! The fast path compares the process-wide state byte with the
//! pass-through value and tail-jumps to the private `_impl` (or to the
//! typed slow path). It touches no argument register or stack slot, so it
//! serves every signature. Operands: `{pass_through}` (const), `{state}`,
//! `{routed}`, `{impl_fn}` (symbols).

/// x86-64 System V: `cmpb $imm8, STATE(%rip); jne routed; jmp *impl@GOTPCREL(%rip)`.
#[macro_export]
macro_rules! x86_64_fast_path {
    () => {
        "cmpb ${pass_through}, {state}(%rip)\njne {routed}\njmp *{impl_fn}@GOTPCREL(%rip)"
    };
}

/// AArch64 AAPCS64 (x16 is the intra-procedure-call scratch register).
#[macro_export]
macro_rules! aarch64_fast_path {
    () => {
        "adrp x16, {state}\nldrb w16, [x16, :lo12:{state}]\ncmp w16, #{pass_through}\nb.ne {routed}\nadrp x16, :got:{impl_fn}\nldr x16, [x16, :got_lo12:{impl_fn}]\nbr x16"
    };
}

/// The lines of a global function `name` that tail-jumps to `name_impl`.
pub fn x86_64_tail_jump(name: &str) -> Vec<String> {
    vec![
        format!(".globl {name}"),
        format!(".type {name},@function"),
        ".p2align 4".to_string(),
        format!("{name}:"),
        format!("jmp *{name}_impl@GOTPCREL(%rip)"),
        format!(".size {name}, .-{name}"),
    ]
}

/// [`x86_64_tail_jump`] for AArch64.
pub fn aarch64_tail_jump(name: &str) -> Vec<String> {
    vec![
        format!(".globl {name}"),
        format!(".type {name},%function"),
        ".p2align 2".to_string(),
        format!("{name}:"),
        format!("adrp x16, :got:{name}_impl"),
        format!("ldr x16, [x16, :got_lo12:{name}_impl]"),
        "br x16".to_string(),
        format!(".size {name}, .-{name}"),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_fast_path_is_three_instructions_on_x86_64_and_ends_in_the_tail_jump() {
        let lines: Vec<&str> = crate::x86_64_fast_path!().lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("cmpb ${pass_through}") && lines[2].starts_with("jmp *{impl_fn}"));
        assert!(crate::aarch64_fast_path!().ends_with("br x16"));
    }

    #[test]
    fn a_tail_jump_jumps_to_the_impl_of_its_name() {
        assert!(super::x86_64_tail_jump("miopenFoo").contains(&"jmp *miopenFoo_impl@GOTPCREL(%rip)".to_string()));
        assert!(super::aarch64_tail_jump("miopenFoo").contains(&"adrp x16, :got:miopenFoo_impl".to_string()));
    }
}
