//! Password hashing with bounded memory (docs/reliability.md, "The memory budget").
//!
//! Argon2id with the `argon2` crate's default parameters needs 19 MiB of working memory per
//! hash (m = 19,456 KiB, t = 2, p = 1). Hashed on tokio's blocking pool (up to 512 threads),
//! a crowd of sign-ins each within its limits made hundreds of such buffers at once, and the
//! allocator kept them afterwards, one arena per thread. Here a fixed number of threads
//! (`Limits::password_hashes`) each own one buffer, reused for every hash it computes and
//! freed after `IDLE` without work; requests wait in a short line (`Limits::hashes_waiting`)
//! and past it are refused with `limit/busy`. So the memory password hashing can take is
//! `password_hashes` x 19 MiB, whatever the crowd. A request takes its place in the line
//! (`Hasher::place`) before any other work (the database's), so a refused one costs nothing
//! but its answer. The threads run at a lower priority than the rest of the server
//! (`lower_priority`): a burst of sign-ins takes the CPU the server's other work leaves, not
//! the time of its answers (`/health`, moves, pages).
//!
//! An unknown name verifies against a decoy of the same parameters, so it costs the same time
//! as a wrong password (docs/protocol.md section 7.1).

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use argon2::password_hash::{Output, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};

use crate::model::{ApiError, Code};

/// A hashing thread frees its buffer after this long without work.
const IDLE: Duration = Duration::from_secs(10);

/// Puts the calling thread below the server's others: batch scheduling (the kernel treats it as
/// a long computation that never preempts a waking thread) and niceness 10 (about a tenth of
/// the CPU weight of a thread at 0 when both want the same core). Where the system refuses
/// (another system, a process already nicer than 10 without the right to raise it), the thread
/// keeps its priority: hashing works the same, only less politely.
fn lower_priority() {
    use thread_priority::{
        NormalThreadSchedulePolicy, ThreadPriority, ThreadPriorityValue, ThreadSchedulePolicy,
    };
    // The crate maps 0..=99 onto niceness 19..=-20; 22 is niceness 10.
    let Ok(nice_10) = ThreadPriorityValue::try_from(22u8) else {
        return;
    };
    let set = thread_priority::set_thread_priority_and_policy(
        thread_priority::thread_native_id(),
        ThreadPriority::Crossplatform(nice_10),
        ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Batch),
    );
    if let Err(e) = set {
        tracing::debug!("password hashing keeps its thread priority: {e:?}");
    }
}

/// Bytes of working memory one hash takes with the parameters used here (19 MiB).
#[must_use]
pub fn memory_per_hash() -> usize {
    Params::default().block_count() * Block::SIZE
}

/// What a hashing thread is asked.
enum Task {
    /// A new PHC string for the password, with a fresh salt.
    Hash(String),
    /// Whether the password matches the PHC string (`None`: the decoy, never matching).
    Verify(String, Option<String>),
}

/// What it answers: a PHC string, or whether a password matched.
enum Answer {
    Hashed(Result<String, String>),
    Verified(bool),
}

struct Job {
    task: Task,
    reply: oneshot::Sender<Answer>,
    /// The job's place, given back once a thread has done it (whether or not anyone still waits
    /// for the answer).
    place: OwnedSemaphorePermit,
}

/// The hashing threads and their line.
pub struct Hasher {
    line: Sender<Job>,
    /// One permit per thread and per place in the line.
    places: Arc<Semaphore>,
}

impl Hasher {
    /// Starts `threads` hashing threads (at least one) behind a line of `waiting` requests.
    ///
    /// # Panics
    /// If a thread cannot be started.
    #[must_use]
    pub fn start(threads: usize, waiting: usize) -> Hasher {
        let threads = threads.max(1);
        let (line, jobs) = mpsc::channel::<Job>();
        let jobs = Arc::new(Mutex::new(jobs));
        for i in 0..threads {
            let jobs = jobs.clone();
            std::thread::Builder::new()
                .name(format!("plateau-hash-{i}"))
                .spawn(move || work(&jobs))
                .expect("a password hashing thread");
        }
        Hasher {
            line,
            places: Arc::new(Semaphore::new(threads + waiting)),
        }
    }

    /// A place in the line for one hash or check, taken at once or not at all.
    ///
    /// # Errors
    /// `limit/busy` when every thread is busy and the line is full.
    pub fn place(&self) -> Result<Place, ApiError> {
        let permit = self
            .places
            .clone()
            .try_acquire_owned()
            .map_err(|_| busy())?;
        Ok(Place {
            line: self.line.clone(),
            permit,
        })
    }
}

/// A place in the hashing line (`Hasher::place`), used by one hash or one check.
pub struct Place {
    line: Sender<Job>,
    permit: OwnedSemaphorePermit,
}

impl Place {
    /// A PHC string of `password` (Argon2id, a fresh salt).
    ///
    /// # Errors
    /// `server/internal` if hashing fails.
    pub async fn hash(self, password: String) -> Result<String, ApiError> {
        match self.ask(Task::Hash(password)).await? {
            Answer::Hashed(Ok(phc)) => Ok(phc),
            Answer::Hashed(Err(e)) => Err(ApiError::internal(format!("argon2: {e}"))),
            Answer::Verified(_) => Err(ApiError::internal("a hash answered as a check")),
        }
    }

    /// Whether `password` matches `stored` (a PHC string); `None` (an unknown name or a guest)
    /// checks against a decoy and answers false, after the same work.
    ///
    /// # Errors
    /// `server/internal` if the hashing threads stopped.
    pub async fn verify(self, password: String, stored: Option<String>) -> Result<bool, ApiError> {
        match self.ask(Task::Verify(password, stored)).await? {
            Answer::Verified(ok) => Ok(ok),
            Answer::Hashed(_) => Err(ApiError::internal("a check answered as a hash")),
        }
    }

    async fn ask(self, task: Task) -> Result<Answer, ApiError> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            task,
            reply,
            place: self.permit,
        };
        if self.line.send(job).is_err() {
            return Err(ApiError::internal("the password hashing threads stopped"));
        }
        answer
            .await
            .map_err(|_| ApiError::internal("a password hashing thread stopped"))
    }
}

/// `limit/busy`: the line of password hashes is full.
fn busy() -> ApiError {
    ApiError::new(
        Code::LimitBusy,
        "the server is busy checking passwords: try again in a few seconds",
    )
}

/// One hashing thread: takes jobs from the line until the `Hasher` is gone, with one buffer of
/// working memory made at its first job and freed after `IDLE` without one.
fn work(jobs: &Mutex<Receiver<Job>>) {
    lower_priority();
    let mut memory: Vec<Block> = Vec::new();
    loop {
        let next = {
            let jobs = jobs.lock().unwrap_or_else(|e| e.into_inner());
            jobs.recv_timeout(IDLE)
        };
        let job = match next {
            Ok(job) => job,
            Err(RecvTimeoutError::Timeout) => {
                memory = Vec::new();
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if memory.is_empty() {
            memory = vec![Block::default(); Params::default().block_count()];
        }
        let Job { task, reply, place } = job;
        let answer = match task {
            Task::Hash(password) => Answer::Hashed(hash_with(&password, &mut memory)),
            Task::Verify(password, stored) => {
                let ok = verify_with(&password, stored.as_deref(), &mut memory);
                Answer::Verified(ok && stored.is_some())
            }
        };
        // The place is free before the answer leaves: whoever hears it may ask again at once.
        drop(place);
        let _ = reply.send(answer);
    }
}

/// Argon2id with the default parameters, in `memory`.
fn hash_with(password: &str, memory: &mut [Block]) -> Result<String, String> {
    let params = Params::default();
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    let mut raw = [0u8; 64];
    let salt_bytes = salt.decode_b64(&mut raw).map_err(|e| e.to_string())?;
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut out = vec![0u8; Params::DEFAULT_OUTPUT_LEN];
    argon
        .hash_password_into_with_memory(password.as_bytes(), salt_bytes, &mut out, memory)
        .map_err(|e| e.to_string())?;
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: (&params).try_into().map_err(|e| format!("{e}"))?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| e.to_string())?),
    };
    Ok(hash.to_string())
}

/// A PHC string of the parameters used here that no password matches: a random salt and a
/// random output.
fn decoy() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| {
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        let params = Params::default();
        let output: [u8; Params::DEFAULT_OUTPUT_LEN] = rand::random();
        PasswordHash {
            algorithm: Algorithm::Argon2id.ident(),
            version: Some(Version::V0x13.into()),
            params: (&params).try_into().unwrap_or_default(),
            salt: Some(salt.as_salt()),
            hash: Output::new(&output).ok(),
        }
        .to_string()
    })
}

/// Whether `password` hashes to `stored` (the decoy when `None`), computed in `memory`. A
/// stored hash that asks for more memory than the parameters used here is refused (it was not
/// made by this server) rather than allowed to grow the buffer.
fn verify_with(password: &str, stored: Option<&str>, memory: &mut [Block]) -> bool {
    let phc = stored.unwrap_or_else(|| decoy());
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    if params.block_count() > memory.len() {
        tracing::warn!(
            m_cost = params.m_cost(),
            "a stored password hash asks for more memory than this server gives one"
        );
        return false;
    }
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm) else {
        return false;
    };
    let version = parsed
        .version
        .and_then(|v| Version::try_from(v).ok())
        .unwrap_or_default();
    let mut raw = [0u8; 64];
    let Ok(salt_bytes) = salt.decode_b64(&mut raw) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    let argon = Argon2::new(algorithm, version, params);
    if argon
        .hash_password_into_with_memory(password.as_bytes(), salt_bytes, &mut out, memory)
        .is_err()
    {
        return false;
    }
    // `Output`'s equality takes the same time wherever the bytes differ.
    Output::new(&out).is_ok_and(|o| o == expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    #[tokio::test]
    async fn hashes_verify_here_and_with_the_argon2_crate_and_unknown_names_fail() {
        let hasher = Hasher::start(1, 4);
        let phc = hasher
            .place()
            .unwrap()
            .hash("correct horse".into())
            .await
            .unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        let ok = |p: &str, s: Option<&str>| {
            let place = hasher.place().unwrap();
            place.verify(p.into(), s.map(str::to_owned))
        };
        assert!(ok("correct horse", Some(&phc)).await.unwrap());
        assert!(!ok("wrong horse", Some(&phc)).await.unwrap());
        assert!(!ok("correct horse", None).await.unwrap());
        assert!(!ok("correct horse", Some("not a hash")).await.unwrap());
        // The same PHC strings as the crate's own hasher, both ways.
        let parsed = PasswordHash::new(&phc).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"correct horse", &parsed)
                .is_ok()
        );
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        let theirs = Argon2::default()
            .hash_password(b"battery staple", &salt)
            .unwrap()
            .to_string();
        assert!(ok("battery staple", Some(&theirs)).await.unwrap());
        assert_eq!(memory_per_hash(), 19 * 1024 * 1024);
    }

    /// One thread and a line of one: two places, a third refused at once; each comes back once
    /// used or given up.
    #[tokio::test]
    async fn past_the_line_requests_are_refused_busy() {
        let hasher = Hasher::start(1, 1);
        let busy = |h: &Hasher| h.place().err().map(|e| e.code);
        let first = hasher.place().unwrap();
        let second = hasher.place().unwrap();
        assert_eq!(busy(&hasher), Some(Code::LimitBusy));
        let phc = second.hash("correct horse".into()).await.unwrap();
        let again = hasher.place().unwrap();
        assert_eq!(busy(&hasher), Some(Code::LimitBusy));
        drop(first);
        assert!(
            again
                .verify("correct horse".into(), Some(phc))
                .await
                .unwrap()
        );
        let both = (hasher.place().unwrap(), hasher.place().unwrap());
        assert_eq!(busy(&hasher), Some(Code::LimitBusy));
        drop(both);
    }
}
