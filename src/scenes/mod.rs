//! One module per scene, each a component over its `rowflow_core::scene` state.

pub mod embedding;
pub mod linear;
pub mod one_hot;
pub mod rnn;
pub mod train;
pub mod word2vec;
