//! Post-game analysis in the background (docs/protocol.md section 3.8): anyone may ask for the
//! analysis of a finished match; one thread computes the analyses asked for, one at a time in the
//! order asked, and stores each beside its match (`Derived::Analysis`), where every later request
//! reads it. While one is waiting or being computed, its progress is kept here, in memory: a
//! restart forgets the waiting ones (they are asked for again), never a stored one.
//!
//! Why one thread: an analysis searches every decision of a game (about a minute of one core for
//! a Bataille Navale game at the expert judge's budget); the bots of live matches have their own
//! pool (`botpool`), so analyses never delay a move by more than sharing the cores.

use std::collections::HashMap;
use std::sync::mpsc::{self, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};

use plateau_bots::{AnalysisOptions, Budget};
use plateau_protocol::server::AnalysisStatus;
use serde_json::value::RawValue;
use tokio::runtime::Handle;

use crate::model::{ApiError, Code, Status};
use plateau_store::{Derived, Store};

/// Most analyses waiting (the one being computed included); past it a request gets
/// `limit/analyses`.
pub const MAX_WAITING: usize = 32;

/// Where one asked-for analysis stands.
#[derive(Clone, PartialEq, Debug)]
enum Progress {
    /// Waiting behind others.
    Queued,
    /// Being computed: `done` of `total` seat decisions judged.
    Running { done: usize, total: usize },
    /// It could not be computed (the reason is logged); asking again retries.
    Failed,
}

/// The analyses waiting or being computed, and the thread computing them.
pub struct Analyses {
    /// Match id → progress, for every analysis asked for and not yet stored.
    progress: Arc<Mutex<HashMap<String, Progress>>>,
    /// The ids waiting, to the computing thread (which ends when this is dropped).
    queue: SyncSender<String>,
}

impl Analyses {
    /// Starts the computing thread. `iterations` overrides the judge's budget of every game (the
    /// default is each game's expert level, `plateau_registry::expert_judge`); the thread reaches
    /// `store` through `runtime`.
    ///
    /// # Panics
    /// If the operating system cannot start a thread.
    #[must_use]
    pub fn start(store: Arc<dyn Store>, runtime: Handle, iterations: Option<u64>) -> Analyses {
        let progress = Arc::new(Mutex::new(HashMap::new()));
        let (queue, waiting) = mpsc::sync_channel::<String>(MAX_WAITING);
        let shared = progress.clone();
        std::thread::Builder::new()
            .name("plateau-analysis".into())
            .spawn(move || {
                for id in waiting {
                    let set = |p: Progress| {
                        lock(&shared).insert(id.clone(), p);
                    };
                    set(Progress::Running { done: 0, total: 0 });
                    match compute(&*store, &runtime, &id, iterations, &mut |done, total| {
                        set(Progress::Running { done, total });
                    }) {
                        Ok(()) => {
                            lock(&shared).remove(&id);
                        }
                        Err(why) => {
                            tracing::error!(match_id = %id, "analysis failed: {why}");
                            set(Progress::Failed);
                        }
                    }
                }
            })
            .expect("cannot start the analysis thread");
        Analyses { progress, queue }
    }

    /// Where the analysis of match `id` stands, as its JSON answer (docs/protocol.md section
    /// 3.8); with `ask`, a match without one is put in line.
    ///
    /// # Errors
    /// `match/not_found`, `match/not_over` for a match still being played, `limit/analyses`
    /// when `MAX_WAITING` are already waiting, `server/internal` if the store fails.
    pub async fn status(&self, store: &dyn Store, id: &str, ask: bool) -> Result<String, ApiError> {
        let m = store
            .get(id, false)
            .await
            .map_err(ApiError::store)?
            .ok_or_else(|| ApiError::not_found(id))?;
        if m.status != Status::Finished {
            return Err(ApiError::new(
                Code::MatchNotOver,
                "a match is analysed once it is over",
            ));
        }
        if let Some(done) = stored(store, id).await? {
            return Ok(done);
        }
        {
            let mut progress = lock(&self.progress);
            let answer = match progress.get(id).cloned() {
                Some(Progress::Failed) | None if ask => {
                    match self.queue.try_send(id.to_owned()) {
                        Ok(()) => {}
                        Err(TrySendError::Full(_)) => {
                            return Err(ApiError::new(
                                Code::LimitAnalyses,
                                "too many games are waiting for their analysis; ask again in a minute",
                            ));
                        }
                        Err(TrySendError::Disconnected(_)) => {
                            return Err(ApiError::internal("the analysis thread stopped"));
                        }
                    }
                    progress.insert(id.to_owned(), Progress::Queued);
                    answer(&Progress::Queued, &progress)
                }
                Some(p) => answer(&p, &progress),
                None => AnalysisStatus::None,
            };
            if !matches!(answer, AnalysisStatus::None) {
                return serde_json::to_string(&answer).map_err(ApiError::internal);
            }
        }
        // Neither stored nor in progress: but the thread stores an analysis, then forgets its
        // progress, so one that ended between the two reads above is in the store now.
        match stored(store, id).await? {
            Some(done) => Ok(done),
            None => serde_json::to_string(&AnalysisStatus::None).map_err(ApiError::internal),
        }
    }
}

/// The stored analysis of `id` as its JSON answer (`done`), if there is one.
async fn stored(store: &dyn Store, id: &str) -> Result<Option<String>, ApiError> {
    let Some(body) = store
        .derived(id.to_owned(), Derived::Analysis)
        .await
        .map_err(ApiError::store)?
    else {
        return Ok(None);
    };
    let analysis = RawValue::from_string(body).map_err(ApiError::internal)?;
    let done = AnalysisStatus::Done {
        analysis: &analysis,
    };
    serde_json::to_string(&done)
        .map(Some)
        .map_err(ApiError::internal)
}

/// The JSON answer for an analysis at `p` (`all` gives how many wait in line).
fn answer(p: &Progress, all: &HashMap<String, Progress>) -> AnalysisStatus<'static> {
    match p {
        Progress::Queued => {
            let waiting = all.values().filter(|p| **p == Progress::Queued).count();
            AnalysisStatus::Queued { waiting }
        }
        Progress::Running { done, total } => AnalysisStatus::Running {
            done: *done,
            total: *total,
        },
        Progress::Failed => AnalysisStatus::Failed,
    }
}

/// Computes and stores the analysis of finished match `id`.
fn compute(
    store: &dyn Store,
    runtime: &Handle,
    id: &str,
    iterations: Option<u64>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(), String> {
    let m = runtime
        .block_on(store.get(id, true))
        .map_err(|e| e.to_string())?
        .ok_or("the match is gone")?;
    let record = crate::replays::to_record(&m);
    let judge = match iterations {
        Some(n) => Budget::Iterations(n.max(1)),
        None => plateau_registry::expert_judge(&m.game).map_err(|e| e.to_string())?,
    };
    let options = AnalysisOptions {
        judge,
        marks: plateau_registry::judge_marks(&m.game).map_err(|e| e.to_string())?,
        ..AnalysisOptions::default()
    };
    let analysis =
        plateau_registry::analyse(&record, &options, progress).map_err(|e| e.to_string())?;
    let body = serde_json::to_string(&analysis).map_err(|e| e.to_string())?;
    runtime
        .block_on(store.put_derived(id.to_owned(), Derived::Analysis, body))
        .map_err(|e| e.to_string())
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
