//! Creating matches (docs/protocol.md sections 3.2 and 3.5): the request checked, the limits per
//! address on making tables, the seed, the match stored and its actor started; joining a seat.

use std::sync::atomic::Ordering;

use plateau_engine::Seed;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::state::Lobby;
use crate::limits::address_key;
use crate::model::{ApiError, Code, SeatSpec, Status, TimeControl, unix_ms};
use crate::players::Player;
use plateau_match::actor::{Command, Joined};
use plateau_match::tokens::new_token;
use plateau_store::{StoredMatch, StoredSeat};

/// `POST /api/matches` (docs/protocol.md section 3.2).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// Registry name of the game.
    pub game: String,
    /// The game's config (`null` = default).
    #[serde(default)]
    pub config: serde_json::Value,
    /// One per seat.
    pub seats: Vec<SeatSpec>,
    /// The clock.
    #[serde(default)]
    pub time_control: TimeControl,
    /// The human seat the creator takes (default: the first human seat).
    #[serde(default)]
    pub creator_seat: Option<u8>,
    /// A fixed chance seed, 64 hex digits; accepted only by a server run with `--test-seeds`
    /// (`Options::test_seeds`), refused with `seed/not_allowed` otherwise.
    #[serde(default)]
    pub seed: Option<String>,
    /// Whether the result changes the players' ratings (default: casual).
    #[serde(default)]
    pub rated: bool,
}

/// A match to store: its seats, and the players already seated with their token hashes.
pub struct NewMatch {
    /// The match's id, chosen beforehand by a caller that may ask twice (a tournament's game:
    /// the second creation finds it made and does nothing); `None` for a fresh one.
    pub id: Option<String>,
    /// Registry name of the game.
    pub game: String,
    /// The game's config (`null` = default).
    pub config: serde_json::Value,
    /// One per seat.
    pub seats: Vec<SeatSpec>,
    /// The clock (validated by the caller).
    pub time_control: TimeControl,
    /// Per seat: the seat token's hash and the person holding it (human seats taken now).
    pub seated: Vec<Option<(String, Player)>>,
    /// The chance seed, `None` for `Lobby::next_seed`.
    pub seed: Option<Seed>,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The creating address's key, for the limits per address.
    pub creator: Option<String>,
}

/// A created match, or a taken seat.
#[derive(Clone, Debug)]
pub struct SeatGrant {
    /// The match id.
    pub id: String,
    /// SHA-256 of the seed.
    pub seed_hash: String,
    /// The seat taken, if any.
    pub seat: Option<u8>,
    /// Its token.
    pub token: Option<String>,
    /// Human seats still free.
    pub free: Vec<u8>,
}

/// What a new table holds, for the limits on creating (docs/protocol.md section 6).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Table {
    /// People only.
    People,
    /// People and bots.
    WithBots,
    /// Bots alone.
    BotsOnly,
}

impl Table {
    /// The kind of a table with these seats.
    #[must_use]
    pub fn of(seats: &[SeatSpec]) -> Table {
        let humans = seats.iter().filter(|s| **s == SeatSpec::Human).count();
        match humans {
            0 => Table::BotsOnly,
            n if n == seats.len() => Table::People,
            _ => Table::WithBots,
        }
    }
}

impl Lobby {
    /// The limits per address on making a table (docs/protocol.md section 6), for a creation,
    /// a rematch, a seek that bots may fill or a join: so many a minute, so many open at once,
    /// so many with bots or of bots alone unfinished. Returns the address's key for the store,
    /// `None` where the limits do not apply. Counted here; a creation refused later is taken
    /// back with `creation_refused`.
    ///
    /// # Errors
    /// `limit/matches`; `server/internal` if the store fails.
    pub async fn creation_allowed(
        &self,
        addr: Option<std::net::IpAddr>,
        table: Table,
    ) -> Result<Option<String>, ApiError> {
        let limits = &self.options.limits;
        let Some(addr) = addr.filter(|a| limits.applies_to(*a)) else {
            return Ok(None);
        };
        let key = address_key(addr);
        let created = self
            .shared
            .store
            .created_by(key.clone())
            .await
            .map_err(ApiError::store)?;
        let over = |n: usize, max: usize, what: &str| {
            ApiError::new(
                Code::LimitMatches,
                format!("{n} {what} from your address: at most {max}"),
            )
        };
        match table {
            Table::BotsOnly if created.bots_only >= limits.bot_matches => {
                return Err(over(
                    created.bots_only,
                    limits.bot_matches,
                    "matches of bots alone are running",
                ));
            }
            Table::WithBots if created.with_bots >= limits.bot_tables => {
                return Err(over(
                    created.with_bots,
                    limits.bot_tables,
                    "unfinished matches against bots",
                ));
            }
            Table::People | Table::WithBots if created.open >= limits.open_matches => {
                return Err(over(
                    created.open,
                    limits.open_matches,
                    "matches wait for players",
                ));
            }
            _ => {}
        }
        self.recent.record(
            &[creation_key(&key)],
            limits.matches_per_minute,
            Code::LimitMatches,
            "too many matches made or joined from your address: wait a minute",
        )?;
        Ok(Some(key))
    }

    /// Takes back a creation `creation_allowed` counted for the address whose key is `key`:
    /// only tables made count toward the limit per minute.
    pub fn creation_refused(&self, key: &str) {
        self.recent.forget(&creation_key(key));
    }

    /// Creates a match (docs/protocol.md section 3.2); `player` takes the creator's seat.
    ///
    /// # Errors
    /// The coded errors listed there.
    pub async fn create(
        &self,
        req: CreateRequest,
        player: Player,
        creator_key: Option<String>,
    ) -> Result<SeatGrant, ApiError> {
        let creator = match req.creator_seat {
            Some(s) => {
                if req.seats.get(usize::from(s)) != Some(&SeatSpec::Human) {
                    return Err(ApiError::new(
                        Code::SeatInvalid,
                        format!(
                            "creator_seat {s} (seat {}) is not a human seat",
                            u16::from(s) + 1
                        ),
                    ));
                }
                Some(s)
            }
            None => req
                .seats
                .iter()
                .position(|s| *s == SeatSpec::Human)
                .map(|i| i as u8),
        };
        let seed = match req.seed {
            None => None,
            Some(_) if !self.options.test_seeds => {
                return Err(ApiError::new(
                    Code::SeedNotAllowed,
                    "a fixed `seed` is accepted only by a server started with --test-seeds",
                ));
            }
            Some(hex) => Some(
                Seed::from_hex(&hex)
                    .map_err(|e| ApiError::new(Code::RequestMalformed, format!("`seed`: {e}")))?,
            ),
        };
        let mut seated = vec![None; req.seats.len()];
        let mut token = None;
        if let Some(s) = creator {
            let (t, hash) = new_token();
            seated[usize::from(s)] = Some((hash, player));
            token = Some(t);
        }
        let id = self
            .create_match(NewMatch {
                id: None,
                game: req.game,
                config: req.config,
                seats: req.seats,
                time_control: req.time_control,
                seated,
                seed,
                rated: req.rated,
                creator: creator_key,
            })
            .await?;
        self.grant(id, creator, token).await
    }

    async fn grant(
        &self,
        id: String,
        seat: Option<u8>,
        token: Option<String>,
    ) -> Result<SeatGrant, ApiError> {
        let m = self
            .shared
            .store
            .get(&id, false)
            .await
            .map_err(ApiError::store)?
            .ok_or_else(|| ApiError::not_found(&id))?;
        Ok(SeatGrant {
            seed_hash: m.seed.hash_hex(),
            free: free_seats(&m.seats),
            id,
            seat,
            token,
        })
    }

    /// The seed of the next match created without one: fresh from the operating system, or with
    /// `Options::test_seeds` the SHA-256 of `plateau test seed N` where N counts the matches this
    /// process created (0 first), so the same sequence of creations gets the same dice.
    fn next_seed(&self) -> Seed {
        let n = self.created.fetch_add(1, Ordering::Relaxed);
        if self.options.test_seeds {
            Seed(Sha256::digest(format!("plateau test seed {n}")).into())
        } else {
            Seed::random()
        }
    }

    /// Validates and stores a new match, and starts its actor. A match whose seats are all
    /// filled by bots starts at once; others wait until every person has opened it. With a
    /// chosen id already stored, nothing is done and the id is answered: creating it again is
    /// a no-op (its actor starts wherever it is asked for, as a resting match's).
    pub async fn create_match(&self, new: NewMatch) -> Result<String, ApiError> {
        if *self.shutdown.borrow() {
            return Err(ApiError::new(Code::ShuttingDown, "the server is stopping"));
        }
        let NewMatch {
            id: chosen,
            game,
            config,
            seats,
            time_control,
            seated,
            seed,
            rated,
            creator,
        } = new;
        let entry = self.shared.catalogue.requested(&game)?;
        entry
            .new_game(&config, seats.len())
            .map_err(|e| ApiError::new(Code::ConfigInvalid, e.to_string()))?;
        let mut stored = Vec::with_capacity(seats.len());
        for (spec, seat) in seats.into_iter().zip(seated) {
            let spec = spec
                .checked()
                .map_err(|e| ApiError::new(Code::RequestMalformed, e))?;
            let (token_hash, player, opened) = match &spec {
                SeatSpec::Bot { bot, .. } => {
                    if !self.shared.catalogue.bots.contains(&bot.as_str()) {
                        return Err(ApiError::new(
                            Code::BotUnknown,
                            format!(
                                "unknown bot `{bot}` (known: {})",
                                self.shared.catalogue.bots.join(", ")
                            ),
                        ));
                    }
                    (None, Some(self.bot_player(bot).await?), true)
                }
                SeatSpec::Human => match seat {
                    Some((hash, player)) => (Some(hash), Some(player), false),
                    None => (None, None, false),
                },
            };
            stored.push(StoredSeat {
                spec,
                token_hash,
                player,
                opened,
            });
        }
        time_control.validate(entry.rule_clock)?;
        let now = unix_ms();
        let all_bots = stored.iter().all(|s| s.opened);
        let given = chosen.is_some();
        let m = StoredMatch {
            id: chosen.unwrap_or_else(new_match_id),
            game: entry.info.name.to_owned(),
            config,
            seats: stored,
            time_control,
            seed: seed.unwrap_or_else(|| self.next_seed()),
            status: if all_bots { Status::Live } else { Status::Open },
            created_at: now,
            started_at: all_bots.then_some(now),
            outcome: None,
            rematch: None,
            rated: rated && !all_bots,
            unrated: None,
            creator,
            ended_at: None,
            version: 0,
            log: Vec::new(),
            chat: Vec::new(),
        };
        let id = m.id.clone();
        match self.shared.store.create(m.clone()).await {
            Ok(()) => {}
            Err(plateau_store::StoreError::Conflict(_)) if given => return Ok(id),
            Err(e) => return Err(ApiError::store(e)),
        }
        // A new id: no other node holds its lease.
        self.lease(&id).await.map_err(ApiError::store)?;
        self.spawn(m).map_err(ApiError::internal)?;
        metrics::counter!(plateau_match::metrics::MATCHES_CREATED).increment(1);
        tracing::info!(%id, game = entry.info.name, "match created");
        Ok(id)
    }

    /// Takes a free human seat of `id` (docs/protocol.md section 3.5).
    ///
    /// # Errors
    /// The coded errors listed there.
    pub async fn join(
        &self,
        id: &str,
        seat: Option<u8>,
        player: Player,
    ) -> Result<SeatGrant, ApiError> {
        let joined: Joined = self
            .call(id, |reply| Command::Join {
                seat,
                player,
                reply,
            })
            .await?;
        let mut grant = self
            .grant(id.to_owned(), Some(joined.seat), Some(joined.token))
            .await?;
        grant.free = joined.free;
        Ok(grant)
    }
}

/// A fresh match id: 16 hex digits.
pub fn new_match_id() -> String {
    hex::encode(rand::random::<[u8; 8]>())
}

/// The per-minute counter of the tables made (or joined) from the address whose key is `key`.
fn creation_key(key: &str) -> String {
    format!("match {key}")
}

fn free_seats(seats: &[StoredSeat]) -> Vec<u8> {
    seats
        .iter()
        .enumerate()
        .filter(|(_, s)| s.spec == SeatSpec::Human && s.token_hash.is_none())
        .map(|(i, _)| i as u8)
        .collect()
}

/// Whether `id` has the shape of a match id (16 lowercase hex digits).
#[must_use]
pub fn is_match_id(id: &str) -> bool {
    id.len() == 16
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}
