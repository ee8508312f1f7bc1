//! rowflow-core: what PyTorch's `nn.Linear`, `nn.Embedding`, `F.one_hot` × `Linear`, `nn.RNN`
//! and the fastai `DotProduct` recommender compute, forward and backward, in float32 exactly as
//! PyTorch does, plus the trace of steps the animations play and `torch.manual_seed` init.
//!
//! No web dependencies: the app compiles it to wasm, the tests run it natively.

pub mod codegen;
pub mod decimal;
pub mod edit;
pub mod error;
pub mod explain;
pub mod fma;
pub mod format;
pub mod lesson;
pub mod ops;
pub mod optim;
pub mod say;
pub mod scene;
pub mod tensor;
pub mod torch_rng;
pub mod trace;

pub use error::{ErrorKind, TorchError};
pub use tensor::{Ids, Tensor};
pub use trace::{Mark, Marks, Phase, Span, Step, Trace};
