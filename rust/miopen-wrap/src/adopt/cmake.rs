//! A reader of the CMake language (cmake-language(7)) for anchor-based
//! edits: a file becomes its command invocations with exact byte spans, so an
//! edit says "this argument of this command" rather than "line 212". It knows
//! line and bracket comments, quoted arguments with escapes, bracket
//! arguments, nested parentheses and legacy unquoted arguments (`a"b c"d`).
//! A file that does not read (unbalanced parentheses, an unterminated string
//! or bracket, an unclosed block) is an error naming the line.

/// One argument of a command invocation.
#[derive(Debug, Clone)]
pub struct Arg {
    /// The argument's value: the text without the quotes of a quoted argument.
    pub value: String,
    /// Byte span in the file (quotes included).
    pub start: usize,
    pub end: usize,
}

/// One command invocation.
#[derive(Debug, Clone)]
pub struct Command {
    /// Lower-case command name (CMake command names are case-insensitive).
    pub name: String,
    /// From the first byte of the name to just past the closing parenthesis.
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub args: Vec<Arg>,
    /// Block nesting depth (if/foreach/while/function/macro/block).
    pub depth: usize,
}

impl Command {
    pub fn first_arg(&self) -> Option<&str> {
        self.args.first().map(|a| a.value.as_str())
    }

    pub fn has_value(&self, value: &str) -> bool {
        self.args.iter().any(|a| a.value == value)
    }
}

const OPENERS: &[&str] = &["if", "foreach", "while", "function", "macro", "block"];
const CLOSERS: &[&str] = &["endif", "endforeach", "endwhile", "endfunction", "endmacro", "endblock"];

pub fn line_of(text: &str, pos: usize) -> usize {
    text.as_bytes()[..pos].iter().filter(|&&b| b == b'\n').count() + 1
}

/// The offset of the first byte of the line holding `pos`.
pub fn line_start(text: &str, pos: usize) -> usize {
    text[..pos].rfind('\n').map_or(0, |i| i + 1)
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
}

type ReadResult<T> = Result<T, String>;

impl Reader<'_> {
    fn error(&self, pos: usize, what: &str) -> String {
        format!("line {}: {what}", line_of(self.text, pos))
    }

    /// `[=*[` at `pos`: the number of `=`.
    fn bracket_open(&self, pos: usize) -> Option<usize> {
        let rest = self.bytes.get(pos..)?;
        if rest.first() != Some(&b'[') {
            return None;
        }
        let eq = rest[1..].iter().take_while(|&&b| b == b'=').count();
        (rest.get(1 + eq) == Some(&b'[')).then_some(eq)
    }

    fn skip_bracket(&self, pos: usize, eq: usize, what: &str) -> ReadResult<usize> {
        let close = format!("]{}]", "=".repeat(eq));
        let body = pos + eq + 2;
        self.text[body..]
            .find(&close)
            .map(|i| body + i + close.len())
            .ok_or_else(|| self.error(pos, &format!("unterminated {what}")))
    }

    fn skip_quoted(&self, pos: usize) -> ReadResult<usize> {
        let mut i = pos + 1;
        while i < self.bytes.len() {
            match self.bytes[i] {
                b'\\' => i += 2,
                b'"' => return Ok(i + 1),
                _ => i += 1,
            }
        }
        Err(self.error(pos, "unterminated quoted argument"))
    }

    /// `pos` at `#`: past the comment (not past the newline).
    fn skip_comment(&self, pos: usize) -> ReadResult<usize> {
        if let Some(eq) = self.bracket_open(pos + 1) {
            return self.skip_bracket(pos + 1, eq, "bracket comment");
        }
        Ok(self.text[pos..].find('\n').map_or(self.bytes.len(), |i| pos + i))
    }

    fn skip_unquoted(&self, mut j: usize) -> ReadResult<usize> {
        while j < self.bytes.len() {
            match self.bytes[j] {
                b'\\' => j += 2,
                b'"' => j = self.skip_quoted(j)?,
                b'(' | b')' | b'#' => break,
                b if b.is_ascii_whitespace() => break,
                _ => j += 1,
            }
        }
        Ok(j.min(self.bytes.len()))
    }

    /// The arguments from just past `(` to just past the matching `)`.
    fn arguments(&self, mut j: usize, name_pos: usize, name: &str) -> ReadResult<(Vec<Arg>, usize)> {
        let mut args = Vec::new();
        let mut parens = 1;
        loop {
            let Some(&c) = self.bytes.get(j) else {
                return Err(self.error(name_pos, &format!("unbalanced parentheses in `{name}(`")));
            };
            match c {
                b'#' => j = self.skip_comment(j)?,
                b'(' => {
                    parens += 1;
                    j += 1;
                }
                b')' => {
                    parens -= 1;
                    j += 1;
                    if parens == 0 {
                        return Ok((args, j));
                    }
                }
                b'"' => {
                    let e = self.skip_quoted(j)?;
                    args.push(Arg { value: self.text[j + 1..e - 1].to_string(), start: j, end: e });
                    j = e;
                }
                c if c.is_ascii_whitespace() => j += 1,
                _ => {
                    let e = match self.bracket_open(j) {
                        Some(eq) => self.skip_bracket(j, eq, "bracket argument")?,
                        None => self.skip_unquoted(j)?,
                    };
                    args.push(Arg { value: self.text[j..e].to_string(), start: j, end: e });
                    j = e;
                }
            }
        }
    }

    /// The command whose name starts at `i`.
    fn command(&self, i: usize) -> ReadResult<Command> {
        let ident_len = self.bytes[i..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
        let name_ok = ident_len > 0 && !self.bytes[i].is_ascii_digit();
        if !name_ok {
            let found: String = self.text[i..].chars().take(20).collect();
            return Err(self.error(i, &format!("expected a command, found {found:?}")));
        }
        let name = &self.text[i..i + ident_len];
        let mut j = i + ident_len;
        while matches!(self.bytes.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        if self.bytes.get(j) != Some(&b'(') {
            return Err(self.error(i, &format!("command `{name}` is not followed by '('")));
        }
        let (args, end) = self.arguments(j + 1, i, name)?;
        Ok(Command { name: name.to_ascii_lowercase(), start: i, end, line: line_of(self.text, i), args, depth: 0 })
    }
}

/// Every command invocation of a CMake file, in file order.
pub fn parse(text: &str) -> Result<Vec<Command>, String> {
    let r = Reader { text, bytes: text.as_bytes() };
    let mut commands = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < r.bytes.len() {
        match r.bytes[i] {
            b if b.is_ascii_whitespace() => i += 1,
            b'#' => i = r.skip_comment(i)?,
            _ => {
                let mut cmd = r.command(i)?;
                i = cmd.end;
                if CLOSERS.contains(&cmd.name.as_str()) {
                    depth = depth
                        .checked_sub(1)
                        .ok_or_else(|| format!("line {}: `{}()` without an opening block", cmd.line, cmd.name))?;
                    cmd.depth = depth;
                } else {
                    cmd.depth = depth;
                    if OPENERS.contains(&cmd.name.as_str()) {
                        depth += 1;
                    }
                }
                commands.push(cmd);
            }
        }
    }
    if depth != 0 {
        return Err("a block (if/foreach/while/function/macro/block) is not closed".into());
    }
    Ok(commands)
}

/// The top-level (depth 0) command that opens the block holding
/// `commands[index]`, or that command itself when it is at depth 0.
pub fn enclosing_top_level(commands: &[Command], index: usize) -> &Command {
    let mut i = index;
    while i > 0 && (commands[i].depth > 0 || CLOSERS.contains(&commands[i].name.as_str())) {
        i -= 1;
    }
    &commands[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_arguments_comments_and_blocks() {
        let text =
            "# add_library(NotThis)\nif(X)\n  add_library( MIOpen ${S} \"a b\" [[x)y]] a\"b c\"d) #[[c]]\nendif()\n";
        let cmds = parse(text).expect("parses");
        assert_eq!(cmds.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["if", "add_library", "endif"]);
        let lib = &cmds[1];
        let values: Vec<&str> = lib.args.iter().map(|a| a.value.as_str()).collect();
        assert_eq!(values, ["MIOpen", "${S}", "a b", "[[x)y]]", "a\"b c\"d"]);
        assert_eq!((lib.line, lib.depth), (3, 1));
        assert_eq!(&text[lib.args[0].start..lib.args[0].end], "MIOpen");
        assert_eq!(enclosing_top_level(&cmds, 1).name, "if");
    }

    #[test]
    fn rejects_what_cmake_would_reject() {
        for (bad, why) in [
            ("f(a\n", "unbalanced parentheses"),
            ("f(\"a)\n", "unterminated quoted argument"),
            ("f([[a)\n", "unterminated bracket argument"),
            ("if(a)\n", "not closed"),
            ("endif()\n", "without an opening block"),
            ("f a\n", "not followed by '('"),
        ] {
            let err = parse(bad).expect_err(bad);
            assert!(err.contains(why), "{bad:?}: {err}");
        }
    }
}
