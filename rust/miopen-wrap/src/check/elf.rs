//! What the gates need to know about an ELF file, read with the `object`
//! crate: the dynamic symbol table (with GNU symbol versions), DT_SONAME,
//! DT_NEEDED and the `.miopen_version` stamp. Relocatable objects (`.o`, for
//! the provider gate) are read through their static symbol table instead.
use std::path::{Path, PathBuf};

use object::elf;
use object::read::elf::{Dyn, FileHeader, SectionHeader, Sym};
use object::{Endianness, FileKind, SymbolIndex};

use super::error::{CheckError, Result};

/// Name of the ELF section carrying the release stamp of both libraries.
pub const VERSION_SECTION: &str = ".miopen_version";
/// Prefix of the stamp string inside [`VERSION_SECTION`].
pub const VERSION_PREFIX: &str = "miopen-version:";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElfKind {
    SharedObject,
    Relocatable,
    Executable,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymKind {
    Func,
    Object,
    Tls,
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    /// GNU version node (from .gnu.version_d for definitions, .gnu.version_r
    /// for references); `None` when unversioned or local/global index.
    pub version: Option<String>,
    /// `name@@VER` (default) rather than `name@VER` (hidden/non-default).
    pub default_version: bool,
    pub defined: bool,
    pub weak: bool,
    /// Global or weak binding (or GNU unique) with default/protected visibility.
    pub global: bool,
    pub kind: SymKind,
    /// Defined in SHN_ABS.
    pub absolute: bool,
}

impl Symbol {
    /// `name@@VER`, `name@VER` or `name` as tools print it.
    pub fn display(&self) -> String {
        match &self.version {
            Some(v) if self.default_version => format!("{}@@{}", self.name, v),
            Some(v) => format!("{}@{}", self.name, v),
            None => self.name.clone(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct ElfInfo {
    pub path: PathBuf,
    pub kind: ElfKind,
    pub soname: Option<String>,
    pub needed: Vec<String>,
    /// Dynamic symbols for shared objects/executables, static symbols for
    /// relocatable objects. Local symbols are dropped.
    pub symbols: Vec<Symbol>,
    /// Names of the version definitions (.gnu.version_d), base entry excluded.
    pub version_defs: Vec<String>,
    /// Raw contents of [`VERSION_SECTION`], if the section exists.
    pub version_section: Option<Vec<u8>>,
    /// Has a `.debug_info` section (DWARF of any language).
    pub has_debug_info: bool,
}

/// Result of decoding [`VERSION_SECTION`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionStamp {
    Missing,
    /// Section present but holds no `miopen-version:` string.
    Malformed(String),
    /// Section holds several different stamps.
    Conflicting(Vec<String>),
    Version(String),
}

impl ElfInfo {
    pub fn read(path: &Path) -> Result<ElfInfo> {
        let data = std::fs::read(path).map_err(|source| CheckError::Io { path: path.to_path_buf(), source })?;
        let kind = FileKind::parse(&*data).map_err(|source| CheckError::Elf { path: path.to_path_buf(), source })?;
        match kind {
            FileKind::Elf32 => parse::<elf::FileHeader32<Endianness>>(path, &data),
            FileKind::Elf64 => parse::<elf::FileHeader64<Endianness>>(path, &data),
            other => Err(CheckError::NotElf { path: path.to_path_buf(), kind: format!("{other:?}") }),
        }
    }

    /// Like [`ElfInfo::read`], but the file must be a shared library.
    pub fn read_shared(path: &Path) -> Result<ElfInfo> {
        let info = Self::read(path)?;
        if info.kind != ElfKind::SharedObject {
            return Err(CheckError::NotSharedLibrary { path: path.to_path_buf() });
        }
        Ok(info)
    }

    /// Symbols this file exports: defined, global/weak, default or protected
    /// visibility; version-node marker symbols (SHN_ABS named like a version
    /// definition) are not exports.
    pub fn exports(&self) -> impl Iterator<Item = &Symbol> {
        self.symbols
            .iter()
            .filter(move |s| s.defined && s.global && !(s.absolute && self.version_defs.contains(&s.name)))
    }

    /// Undefined global symbols this file references.
    pub fn undefined(&self) -> impl Iterator<Item = &Symbol> {
        self.symbols.iter().filter(|s| !s.defined && s.global)
    }

    /// Is `name` exported (any version)?
    pub fn exports_name(&self, name: &str) -> bool {
        self.exports().any(|s| s.name == name)
    }

    /// The SOVERSION suffix of the SONAME: `libMIOpen.so.1` -> `1`,
    /// `libMIOpen-ab12.so.1.0` -> `1.0`, `libMIOpen-ab12.so` -> `None`.
    pub fn soversion(&self) -> Option<String> {
        self.soname.as_deref().and_then(soversion_of)
    }

    pub fn version_stamp(&self) -> VersionStamp {
        match &self.version_section {
            None => VersionStamp::Missing,
            Some(bytes) => decode_stamp(bytes),
        }
    }
}

/// SOVERSION suffix of a library file name or SONAME (text after `.so.`).
pub fn soversion_of(name: &str) -> Option<String> {
    let idx = name.rfind(".so.")?;
    let v = &name[idx + 4..];
    (!v.is_empty()).then(|| v.to_string())
}

/// Decode the stamp: NUL-separated strings, each `miopen-version:X.Y.Z`.
/// Several identical stamps (one per TU that embeds it) are fine; different
/// ones are a conflict.
pub fn decode_stamp(bytes: &[u8]) -> VersionStamp {
    let mut found: Vec<String> = Vec::new();
    for chunk in bytes.split(|b| *b == 0) {
        let text = String::from_utf8_lossy(chunk);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        match text.strip_prefix(VERSION_PREFIX) {
            Some(v) if is_semver_triplet(v) => {
                if !found.iter().any(|f| f == v) {
                    found.push(v.to_string());
                }
            }
            _ => return VersionStamp::Malformed(text.to_string()),
        }
    }
    match found.len() {
        0 => VersionStamp::Malformed(String::from_utf8_lossy(bytes).into_owned()),
        1 => VersionStamp::Version(found.remove(0)),
        _ => VersionStamp::Conflicting(found),
    }
}

fn is_semver_triplet(v: &str) -> bool {
    let parts: Vec<&str> = v.split('.').collect();
    parts.len() == 3 && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

fn elf_err(path: &Path) -> impl Fn(object::read::Error) -> CheckError + '_ {
    move |source| CheckError::Elf { path: path.to_path_buf(), source }
}

type Sections<'data, Elf> = object::read::elf::SectionTable<'data, Elf, &'data [u8]>;

fn parse<Elf: FileHeader<Endian = Endianness>>(path: &Path, data: &[u8]) -> Result<ElfInfo> {
    let err = elf_err(path);
    let header = Elf::parse(data).map_err(&err)?;
    let endian = header.endian().map_err(&err)?;
    let sections = header.sections(endian, data).map_err(&err)?;
    let kind = match header.e_type(endian) {
        elf::ET_DYN => ElfKind::SharedObject,
        elf::ET_REL => ElfKind::Relocatable,
        elf::ET_EXEC => ElfKind::Executable,
        _ => ElfKind::Other,
    };
    let (soname, needed) = match dynamic_names(path, endian, data, &sections)? {
        Some(names) => names,
        None if kind == ElfKind::SharedObject => return Err(CheckError::NotSharedLibrary { path: path.to_path_buf() }),
        None => (None, Vec::new()),
    };
    Ok(ElfInfo {
        has_debug_info: sections.section_by_name(endian, b".debug_info").is_some(),
        path: path.to_path_buf(),
        kind,
        soname,
        needed,
        symbols: symbols(path, endian, data, &sections, kind)?,
        version_defs: version_definitions(path, endian, data, &sections)?,
        version_section: version_section(path, endian, data, &sections)?,
    })
}

/// DT_SONAME and the DT_NEEDED entries; None when there is no dynamic section.
fn dynamic_names<Elf: FileHeader<Endian = Endianness>>(
    path: &Path,
    endian: Endianness,
    data: &[u8],
    sections: &Sections<'_, Elf>,
) -> Result<Option<(Option<String>, Vec<String>)>> {
    let err = elf_err(path);
    let Some((dyns, link)) = sections.dynamic(endian, data).map_err(&err)? else { return Ok(None) };
    let strings = sections.strings(endian, data, link).map_err(&err)?;
    let mut soname = None;
    let mut needed = Vec::new();
    for d in dyns {
        match d.tag32(endian) {
            Some(elf::DT_NULL) => break,
            Some(elf::DT_NEEDED) => needed.push(lossy(d.string(endian, strings).map_err(&err)?)),
            Some(elf::DT_SONAME) => soname = Some(lossy(d.string(endian, strings).map_err(&err)?)),
            _ => {}
        }
    }
    Ok(Some((soname, needed)))
}

/// The names of the version definitions (`.gnu.version_d`), base left out.
fn version_definitions<Elf: FileHeader<Endian = Endianness>>(
    path: &Path,
    endian: Endianness,
    data: &[u8],
    sections: &Sections<'_, Elf>,
) -> Result<Vec<String>> {
    let err = elf_err(path);
    let mut version_defs = Vec::new();
    let Some((mut defs, link)) = sections.gnu_verdef(endian, data).map_err(&err)? else { return Ok(version_defs) };
    let strings = sections.strings(endian, data, link).map_err(&err)?;
    while let Some((def, mut aux)) = defs.next().map_err(&err)? {
        if def.vd_flags.get(endian) & elf::VER_FLG_BASE != 0 {
            continue;
        }
        if let Some(a) = aux.next().map_err(&err)? {
            version_defs.push(lossy(a.name(endian, strings).map_err(&err)?));
        }
    }
    Ok(version_defs)
}

/// Non-local named symbols: the dynamic table (with versions) for linked
/// files, the static table for objects.
fn symbols<Elf: FileHeader<Endian = Endianness>>(
    path: &Path,
    endian: Endianness,
    data: &[u8],
    sections: &Sections<'_, Elf>,
    kind: ElfKind,
) -> Result<Vec<Symbol>> {
    let err = elf_err(path);
    let sym_type = if kind == ElfKind::Relocatable { elf::SHT_SYMTAB } else { elf::SHT_DYNSYM };
    let table = sections.symbols(endian, data, sym_type).map_err(&err)?;
    let versions = if sym_type == elf::SHT_DYNSYM { sections.versions(endian, data).map_err(&err)? } else { None };
    let mut symbols = Vec::new();
    for (i, sym) in table.symbols().iter().enumerate().skip(1) {
        if sym.st_bind() == elf::STB_LOCAL {
            continue;
        }
        let name = sym.name(endian, table.strings()).map_err(&err)?;
        if name.is_empty() {
            continue;
        }
        let (version, default_version) = match &versions {
            Some(vt) => {
                let idx = vt.version_index(endian, SymbolIndex(i));
                (vt.version(idx).map_err(&err)?.map(|v| lossy(v.name())), !idx.is_hidden())
            }
            None => (None, true),
        };
        symbols.push(symbol(endian, sym, lossy(name), version, default_version));
    }
    Ok(symbols)
}

fn symbol<S: Sym<Endian = Endianness>>(
    endian: Endianness,
    sym: &S,
    name: String,
    version: Option<String>,
    default_version: bool,
) -> Symbol {
    let bind = sym.st_bind();
    let shndx = sym.st_shndx(endian);
    let defined = shndx != elf::SHN_UNDEF;
    let global = matches!(bind, elf::STB_GLOBAL | elf::STB_WEAK | elf::STB_GNU_UNIQUE)
        && (!defined || matches!(sym.st_visibility(), elf::STV_DEFAULT | elf::STV_PROTECTED));
    let kind = match sym.st_type() {
        elf::STT_FUNC | elf::STT_GNU_IFUNC => SymKind::Func,
        elf::STT_OBJECT | elf::STT_COMMON => SymKind::Object,
        elf::STT_TLS => SymKind::Tls,
        _ => SymKind::Other,
    };
    Symbol {
        name,
        version,
        default_version,
        defined,
        weak: bind == elf::STB_WEAK,
        global,
        kind,
        absolute: shndx == elf::SHN_ABS,
    }
}

/// The bytes of [`VERSION_SECTION`]: empty when it has no file data
/// (`SHT_NOBITS`), None when there is no such section.
fn version_section<Elf: FileHeader<Endian = Endianness>>(
    path: &Path,
    endian: Endianness,
    data: &[u8],
    sections: &Sections<'_, Elf>,
) -> Result<Option<Vec<u8>>> {
    match sections.section_by_name(endian, VERSION_SECTION.as_bytes()) {
        Some((_, hdr)) if hdr.sh_type(endian) != elf::SHT_NOBITS => {
            Ok(Some(hdr.data(endian, data).map_err(elf_err(path))?.to_vec()))
        }
        Some(_) => Ok(Some(Vec::new())),
        None => Ok(None),
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamp_decoding() {
        assert_eq!(decode_stamp(b"miopen-version:3.4.0\0"), VersionStamp::Version("3.4.0".into()));
        assert_eq!(
            decode_stamp(b"miopen-version:3.4.0\0miopen-version:3.4.0\0"),
            VersionStamp::Version("3.4.0".into())
        );
        assert!(matches!(decode_stamp(b"MIOPEN_WRAP_VERSION=1.2.3\0"), VersionStamp::Malformed(_)));
        assert!(matches!(decode_stamp(b"miopen-version:3.4.0\0miopen-version:3.5.0\0"), VersionStamp::Conflicting(_)));
        assert!(matches!(decode_stamp(b"garbage\0"), VersionStamp::Malformed(_)));
        assert!(matches!(decode_stamp(b"miopen-version:3.4\0"), VersionStamp::Malformed(_)));
        assert!(matches!(decode_stamp(b""), VersionStamp::Malformed(_)));
    }

    #[test]
    fn soversion() {
        assert_eq!(soversion_of("libMIOpen.so.1").as_deref(), Some("1"));
        assert_eq!(soversion_of("libMIOpen-ab12cd.so.1.0").as_deref(), Some("1.0"));
        assert_eq!(soversion_of("libMIOpen-ab12cd.so"), None);
        assert_eq!(soversion_of("libMIOpen.so."), None);
    }
}
