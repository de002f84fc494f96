//! A client connection whose writes give up once they make no progress (`WRITE_STALL`).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// How long a write to a client may make no progress before the connection is dropped: an
/// answer the client does not read (a large replay, a history) is not held longer.
pub const WRITE_STALL: Duration = Duration::from_secs(10);

/// A client connection whose writes fail once they made no progress for `WRITE_STALL` (the
/// kernel's send buffer full, the client reading nothing). Reads are left to the header and
/// idle timeouts.
pub(super) struct Stalled {
    stream: TcpStream,
    /// When the pending write gives up, while one is pending.
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Stalled {
    pub(super) fn new(stream: TcpStream) -> Stalled {
        Stalled {
            stream,
            deadline: None,
        }
    }

    /// A pending write: past its deadline, an error; else the deadline armed.
    fn stalled(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let deadline = self
            .deadline
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_STALL)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client reads nothing",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    /// Passes a write's answer on: progress disarms the deadline, waiting arms it.
    fn written<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match poll {
            Poll::Pending => match self.stalled(cx) {
                Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
                _ => Poll::Pending,
            },
            done => {
                self.deadline = None;
                done
            }
        }
    }
}

impl AsyncRead for Stalled {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stalled {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.written(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.written(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.stream).poll_flush(cx);
        self.written(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.stream).poll_shutdown(cx);
        self.written(cx, poll)
    }
}
