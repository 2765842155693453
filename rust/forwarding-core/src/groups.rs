//! The one list of family groups. Each row lives in its group's folder
//! (`<group>/group.rs`); this list is the only generic place that names a
//! group. Its order is the order of the groups' families (a family's bit in
//! a `FamilySet`) and of every table derived from the rows.

use crate::row::GroupRow;

pub const GROUPS: &[&GroupRow] =
    &[&crate::conv::group::ROW, &crate::fusion::group::ROW, &crate::find2::group::ROW, &crate::batchnorm::group::ROW];
