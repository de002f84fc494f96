//! The server under load: spawned here (`plateau serve`, or the `null_server` example) or
//! found at an address, its health awaited and its memory read.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server under load: its address, and its process when spawned here.
pub(super) struct Server {
    pub(super) addr: SocketAddr,
    pub(super) pid: Option<u32>,
    pub(super) child: Option<Child>,
    pub(super) db: Option<std::path::PathBuf>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
        if let Some(db) = &self.db {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
            }
        }
    }
}

/// Starts `plateau serve` (this binary) on a free port over `db`, the load's address 127.0.0.1
/// exempt from the limits per address (every other keeps them), and waits until `/health`
/// answers.
pub(super) fn spawn(db: &std::path::Path, extra: &[String]) -> Result<Server, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut server = start(Duration::from_secs(120), |addr| {
        Command::new(&exe)
            .args(["serve", "--addr", &addr.to_string(), "--database"])
            .arg(db)
            .args([
                "--scheduled-tournaments",
                "false",
                "--bot-delay-ms",
                "0",
                "--max-connections",
                "100000",
                "--exempt-address",
                "127.0.0.1",
            ])
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start plateau serve: {e}"))
    })?;
    server.db = Some(db.to_owned());
    Ok(server)
}

/// Starts the child `make` gives for a free port and waits `within` for its `/health`. The port
/// is free when chosen but may be taken before the child binds it (by any socket of another
/// process): the child then exits, and another port is tried, three in all. A child that is
/// still running but silent is not tried again.
fn start(
    within: Duration,
    make: impl Fn(SocketAddr) -> Result<Child, String>,
) -> Result<Server, String> {
    let mut last = String::new();
    for _ in 0..3 {
        let addr = free_port()?;
        let mut server = Server {
            addr,
            pid: None,
            child: Some(make(addr)?),
            db: None,
        };
        server.pid = server.child.as_ref().map(Child::id);
        match wait_healthy(addr, within, server.child.as_mut()) {
            Ok(_) => return Ok(server),
            Err(e)
                if matches!(
                    server.child.as_mut().map(Child::try_wait),
                    Some(Ok(Some(_)))
                ) =>
            {
                last = e;
            }
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// Waits until `GET /health` answers 200; returns how long it took.
///
/// # Errors
/// `child` (the server's process, when spawned here) exited first, or `within` passed.
fn wait_healthy(
    addr: SocketAddr,
    within: Duration,
    mut child: Option<&mut Child>,
) -> Result<Duration, String> {
    let start = Instant::now();
    while start.elapsed() < within {
        if let Some(Ok(Some(status))) = child.as_mut().map(|c| c.try_wait()) {
            return Err(format!("the server for {addr} exited first: {status}"));
        }
        if let Ok(mut s) = std::net::TcpStream::connect(addr) {
            use std::io::{Read, Write};
            let _ = s.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            let mut out = String::new();
            let _ = s.read_to_string(&mut out);
            if out.starts_with("HTTP/1.1 200") {
                return Ok(start.elapsed());
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Err(format!(
        "the server at {addr} did not answer within {within:?}"
    ))
}

/// Resident memory of process `pid` in KiB (Linux `/proc`), if readable.
pub(super) fn rss_kib(pid: Option<u32>) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// A free port of 127.0.0.1 (bound and released).
pub(super) fn free_port() -> Result<SocketAddr, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())
}

/// Starts the `null_server` example's `binary` on a free port and waits for its `/health`.
pub(super) fn spawn_null(binary: &std::path::Path) -> Result<Server, String> {
    start(Duration::from_secs(30), |addr| {
        Command::new(binary)
            .arg(addr.port().to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_that_exits_is_noticed_and_tried_three_times() {
        let tries = std::cell::Cell::new(0);
        let err = start(Duration::from_secs(600), |_| {
            tries.set(tries.get() + 1);
            Command::new("false")
                .spawn()
                .map_err(|e| format!("cannot start false: {e}"))
        })
        .err()
        .expect("no server answers");
        assert!(err.contains("exited first"), "{err}");
        assert_eq!(tries.get(), 3);
    }
}
