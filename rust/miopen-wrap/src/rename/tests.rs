//! Unit tests of the token walk and the rewrite.
