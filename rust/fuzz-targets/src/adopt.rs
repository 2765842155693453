//! The adopt tool's inputs: `cmake-edits.toml` (TOML), a source-edits
//! file (JSON) and the CMake text its anchors are found in: any text parses
//! or is refused with a message, never a panic.

use miopen_wrap::adopt::inputs;

pub fn run(data: &[u8]) {
    let (kind, rest) = data.split_first().unwrap_or((&0, &[]));
    let text = String::from_utf8_lossy(rest);
    match kind % 3 {
        0 => {
            let _ = inputs::parse_edits(&text, "fuzz.toml");
        }
        1 => {
            let _ = inputs::parse_source_edits(&text, "fuzz.json");
        }
        _ => {
            let _ = inputs::parse_cmake(&text);
        }
    }
}
