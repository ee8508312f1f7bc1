//! Errors as PyTorch raises them: the exception class and its exact message, so the app can show
//! a learner the very text PyTorch would print.

use serde::{Deserialize, Serialize};
use std::fmt;

/// PyTorch's exception class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorKind {
    IndexError,
    RuntimeError,
    ValueError,
    AssertionError,
}

impl ErrorKind {
    /// The class name as Python prints it.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::IndexError => "IndexError",
            ErrorKind::RuntimeError => "RuntimeError",
            ErrorKind::ValueError => "ValueError",
            ErrorKind::AssertionError => "AssertionError",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TorchError {
    pub kind: ErrorKind,
    pub message: String,
}

impl TorchError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self { kind, message: message.into() }
    }
    pub fn index(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::IndexError, message)
    }
    pub fn runtime(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::RuntimeError, message)
    }
    pub fn value(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::ValueError, message)
    }
    pub fn assertion(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::AssertionError, message)
    }
}

impl fmt::Display for TorchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for TorchError {}

pub type Result<T> = std::result::Result<T, TorchError>;
