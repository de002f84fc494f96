//! The future every call of the store answers with.

use std::future::Future;
use std::pin::Pin;

/// A boxed future, so `Store` can be used as `dyn Store`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;
