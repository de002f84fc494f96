//! Challenges to a named player (docs/protocol.md section 7.7): a player challenges another by
//! name to a table of two with a game, a clock and rated or not; the challenged sees it on its
//! lobby sockets and accepts (the match is made at once, both seats taken) or declines; the
//! challenger may withdraw it; nobody answering, it expires. Kept in memory, per node, as the
//! pairing pools are: a challenge lives while the challenger's lobby socket that sent it is open.
//!
//! A challenge from a player the challenged blocks is taken as any other, but never shown to the
//! challenged: to the challenger it reads as a challenge nobody answered, and it expires so
//! (docs/protocol.md section 7.8: nothing tells a player it is blocked).

use std::net::IpAddr;
use std::sync::{Arc, Mutex, Weak};

use serde::Deserialize;
use tokio::sync::mpsc;

use plateau_lobby::lobby::{Lobby, NewMatch, Table};
use plateau_lobby::model::{ApiError, Code, SeatSpec, TimeControl, unix_ms};
use plateau_lobby::players::{Player, PlayerId, PlayerKind};
use plateau_match::tokens::new_token;
use plateau_protocol::server::{ChallengeEnd, ChallengeSide, ChallengeView, LobbyMessage};
use plateau_store::ratings::Rating;

/// Challenges one player may have open at once.
pub const OPEN_PER_PLAYER: usize = 5;

/// Challenges that may wait for one player's answer at once.
pub const WAITING_PER_PLAYER: usize = 20;

/// `{"type": "challenge", "name": "Bob", "game": "mad", "time_control": TC, "rated": false}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The message type, `"challenge"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Who is challenged (without regard to case).
    pub name: String,
    /// The game's registry name.
    pub game: String,
    /// The clock.
    #[serde(default)]
    pub time_control: TimeControl,
    /// Rated or casual.
    #[serde(default)]
    pub rated: bool,
}

/// The lobby socket a challenge was sent from: its id and its queue.
pub struct Origin {
    /// The connection's id (`Lobby::next_connection`).
    pub conn: u64,
    /// Its queue of messages to send (`paired` goes there).
    pub out: mpsc::Sender<String>,
    /// The client's address, for the limits on making matches.
    pub addr: Option<IpAddr>,
}

/// One open challenge.
struct Open {
    view: ChallengeView,
    from: Player,
    to: Player,
    /// The lobby socket it was sent from.
    conn: u64,
    out: mpsc::Sender<String>,
    /// The challenger's address key, counted as making a match (docs/protocol.md section 6).
    address: Option<String>,
    /// The challenged blocks the challenger: never shown to it.
    hidden: bool,
}

#[derive(Default)]
struct Inner {
    next: u64,
    open: Vec<Open>,
}

/// The open challenges of this node.
pub struct Challenges {
    lobby: Arc<Lobby>,
    inner: Mutex<Inner>,
    /// Itself, for the expiry timers.
    me: Weak<Challenges>,
}

/// Why a challenge left the list.
enum Gone {
    Ended(ChallengeEnd),
    Accepted,
}

impl Challenges {
    /// No challenges yet, over `lobby`.
    #[must_use]
    pub fn new(lobby: Arc<Lobby>) -> Arc<Challenges> {
        Arc::new_cyclic(|me| Challenges {
            lobby,
            inner: Mutex::new(Inner::default()),
            me: me.clone(),
        })
    }

    fn with<T>(&self, f: impl FnOnce(&mut Inner) -> T) -> T {
        f(&mut self.inner.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// `from` challenges the player `request` names; the challenge's number.
    ///
    /// # Errors
    /// `player/not_found`, `challenge/invalid` (oneself, a bot, a game not played by two),
    /// `game/unknown`, `time_control/invalid`, `player/blocked` (`from` blocks that player),
    /// `challenge/duplicate`, `limit/challenges`, `limit/matches`, `store/unavailable`.
    pub async fn send(
        &self,
        from: &Player,
        origin: Origin,
        request: ChallengeRequest,
    ) -> Result<u64, ApiError> {
        let store = self.lobby.store();
        let to = store
            .player_by_name(request.name.clone())
            .await
            .map_err(ApiError::store)?
            .map(|(p, _)| p)
            .ok_or_else(|| {
                ApiError::new(
                    Code::PlayerNotFound,
                    format!("no player is named {:?}", request.name),
                )
            })?;
        if to.id == from.id {
            return Err(ApiError::new(
                Code::ChallengeInvalid,
                "you cannot challenge yourself",
            ));
        }
        if to.kind == PlayerKind::Bot {
            return Err(ApiError::new(
                Code::ChallengeInvalid,
                "bots are not challenged by name: play the computer from the lobby",
            ));
        }
        let entry = self.lobby.catalogue().requested(&request.game)?;
        if !(entry.info.min_seats..=entry.info.max_seats).contains(&2) {
            return Err(ApiError::new(
                Code::ChallengeInvalid,
                format!(
                    "a challenge is a table of two, and {} is played by {} to {}",
                    entry.info.title, entry.info.min_seats, entry.info.max_seats
                ),
            ));
        }
        request.time_control.validate(entry.rule_clock)?;
        let (blocks, blocked) = store
            .blocks_between(from.id, to.id)
            .await
            .map_err(ApiError::store)?;
        if blocks {
            return Err(ApiError::new(
                Code::PlayerBlocked,
                format!("you block {}: unblock them to challenge them", to.name),
            ));
        }
        let rating = |player: PlayerId| async move {
            let standings = store.standings(player).await.map_err(ApiError::store)?;
            Ok::<i64, ApiError>(
                standings
                    .into_iter()
                    .find(|(g, _)| g == entry.info.name)
                    .map_or_else(|| Rating::default().shown(), |(_, s)| s.rating.shown()),
            )
        };
        let side = |p: &Player, rating: i64| ChallengeSide {
            name: p.name.clone(),
            kind: p.kind,
            rating,
        };
        let view = ChallengeView {
            challenge: 0,
            from: side(from, rating(from.id).await?),
            to: side(&to, rating(to.id).await?),
            game: entry.info.name.to_owned(),
            seats: 2,
            time_control: request.time_control,
            rated: request.rated,
            expires_at: unix_ms()
                + i64::try_from(self.lobby.options().limits.challenge_life.as_millis())
                    .unwrap_or(i64::MAX / 2),
        };
        let address = self
            .lobby
            .creation_allowed(origin.addr, Table::People)
            .await?;
        let added = self.with(|inner| {
            let mine = inner.open.iter().filter(|c| c.from.id == from.id);
            if mine.clone().any(|c| c.to.id == to.id) {
                return Err(ApiError::new(
                    Code::ChallengeDuplicate,
                    format!("you already challenged {}", to.name),
                ));
            }
            if mine.count() >= OPEN_PER_PLAYER {
                return Err(ApiError::new(
                    Code::LimitChallenges,
                    format!(
                        "you have {OPEN_PER_PLAYER} challenges open: withdraw one or wait for an answer"
                    ),
                ));
            }
            let waiting = inner.open.iter().filter(|c| c.to.id == to.id && !c.hidden);
            if !blocked && waiting.count() >= WAITING_PER_PLAYER {
                return Err(ApiError::new(
                    Code::LimitChallenges,
                    format!("{} has many challenges waiting: try again later", to.name),
                ));
            }
            inner.next += 1;
            let id = inner.next;
            inner.open.push(Open {
                view: ChallengeView {
                    challenge: id,
                    ..view
                },
                from: from.clone(),
                to: to.clone(),
                conn: origin.conn,
                out: origin.out,
                address: address.clone(),
                hidden: blocked,
            });
            Ok(id)
        });
        let id = match added {
            Ok(id) => id,
            Err(e) => {
                if let Some(key) = &address {
                    self.lobby.creation_refused(key);
                }
                return Err(e);
            }
        };
        self.tell_lists(&[from.id, to.id]);
        let me = self.me.clone();
        let life = self.lobby.options().limits.challenge_life;
        tokio::spawn(async move {
            tokio::time::sleep(life).await;
            if let Some(me) = me.upgrade() {
                me.end(
                    |c| c.view.challenge == id,
                    Gone::Ended(ChallengeEnd::Expired),
                );
            }
        });
        Ok(id)
    }

    /// `player` accepts challenge `id`: the match is made, both seats taken (in random order);
    /// the challenger's socket is sent its `paired`, and the accepter's is returned.
    ///
    /// # Errors
    /// `challenge/not_found` (gone, or not waiting for this player); the errors of making a
    /// match (then the challenger is told the same error).
    pub async fn accept(&self, player: &Player, id: u64) -> Result<String, ApiError> {
        let open = self
            .end(
                |c| c.view.challenge == id && c.to.id == player.id && !c.hidden,
                Gone::Accepted,
            )
            .pop()
            .ok_or_else(not_found)?;
        let accepter_first: bool = rand::random();
        let (first, second) = if accepter_first {
            (&open.to, &open.from)
        } else {
            (&open.from, &open.to)
        };
        let (token_a, hash_a) = new_token();
        let (token_b, hash_b) = new_token();
        let created = self
            .lobby
            .create_match(NewMatch {
                id: None,
                game: open.view.game.clone(),
                config: serde_json::Value::Null,
                seats: vec![SeatSpec::Human, SeatSpec::Human],
                time_control: open.view.time_control,
                seated: vec![
                    Some((hash_a, first.clone())),
                    Some((hash_b, second.clone())),
                ],
                seed: None,
                rated: open.view.rated,
                creator: open.address.clone(),
            })
            .await;
        let match_id = match created {
            Ok(id) => id,
            Err(e) => {
                if let Some(key) = &open.address {
                    self.lobby.creation_refused(key);
                }
                let _ = open.out.try_send(e.to_ws_json());
                return Err(e);
            }
        };
        let paired = |seat: usize, token: &str| {
            serde_json::to_string(&LobbyMessage::Paired {
                id: &match_id,
                seat,
                token,
                url: format!("/m/{match_id}"),
            })
            .unwrap_or_default()
        };
        let (accepter_seat, challenger_seat) = if accepter_first { (0, 1) } else { (1, 0) };
        let (accepter_token, challenger_token) = if accepter_first {
            (&token_a, &token_b)
        } else {
            (&token_b, &token_a)
        };
        let _ = open.out.try_send(paired(challenger_seat, challenger_token));
        Ok(paired(accepter_seat, accepter_token))
    }

    /// `player` declines challenge `id`; the challenger is told.
    ///
    /// # Errors
    /// `challenge/not_found`.
    pub fn decline(&self, player: PlayerId, id: u64) -> Result<(), ApiError> {
        let gone = self.end(
            |c| c.view.challenge == id && c.to.id == player && !c.hidden,
            Gone::Ended(ChallengeEnd::Declined),
        );
        if gone.is_empty() {
            return Err(not_found());
        }
        Ok(())
    }

    /// `player` withdraws its challenge `id`; the challenged is told.
    ///
    /// # Errors
    /// `challenge/not_found`.
    pub fn cancel(&self, player: PlayerId, id: u64) -> Result<(), ApiError> {
        let gone = self.end(
            |c| c.view.challenge == id && c.from.id == player,
            Gone::Ended(ChallengeEnd::Cancelled),
        );
        if gone.is_empty() {
            return Err(not_found());
        }
        Ok(())
    }

    /// Lobby socket `conn` closed: the challenges it sent are withdrawn.
    pub fn left(&self, conn: u64) {
        self.end(|c| c.conn == conn, Gone::Ended(ChallengeEnd::Cancelled));
    }

    /// `blocker` now blocks `blocked`: its challenges to `blocked` are withdrawn, and those of
    /// `blocked` to it are hidden from it (to `blocked` they wait on, unanswered, until they
    /// expire).
    pub fn blocked(&self, blocker: PlayerId, blocked: PlayerId) {
        self.end(
            |c| c.from.id == blocker && c.to.id == blocked,
            Gone::Ended(ChallengeEnd::Cancelled),
        );
        let hid = self.with(|inner| {
            let mut hid = false;
            for c in &mut inner.open {
                if c.from.id == blocked && c.to.id == blocker && !c.hidden {
                    c.hidden = true;
                    hid = true;
                }
            }
            hid
        });
        if hid {
            self.tell_lists(&[blocker]);
        }
    }

    /// Removes the challenges `which` picks, and tells both sides of each what became of it.
    fn end(&self, which: impl Fn(&Open) -> bool, why: Gone) -> Vec<Open> {
        let gone: Vec<Open> = self.with(|inner| {
            let (gone, kept) = std::mem::take(&mut inner.open)
                .into_iter()
                .partition(&which);
            inner.open = kept;
            gone
        });
        if gone.is_empty() {
            return gone;
        }
        let presence = self.lobby.presence();
        for c in &gone {
            // The challenge stays counted as a match its address made, answered or not: sending
            // and withdrawing again and again would otherwise ring the other's lobby unbounded.
            if let Gone::Ended(reason) = why {
                let ended = |name: &str| {
                    serde_json::to_string(&LobbyMessage::ChallengeEnded {
                        challenge: c.view.challenge,
                        name,
                        reason,
                    })
                    .unwrap_or_default()
                };
                // Each side hears of what the other did (or of the expiry); a hidden challenge
                // is told to its challenger only when it expires, as an unanswered one is.
                if reason != ChallengeEnd::Cancelled {
                    presence.tell(c.from.id, &ended(&c.to.name));
                }
                if reason != ChallengeEnd::Declined && !c.hidden {
                    presence.tell(c.to.id, &ended(&c.from.name));
                }
            }
        }
        let mut players: Vec<PlayerId> = gone.iter().flat_map(|c| [c.from.id, c.to.id]).collect();
        players.sort_unstable_by_key(|p| p.0);
        players.dedup();
        self.tell_lists(&players);
        gone
    }

    /// The challenges `player` sees: those to it (but hidden ones) and its own.
    #[must_use]
    pub fn of_player(&self, player: PlayerId) -> (Vec<ChallengeView>, Vec<ChallengeView>) {
        self.with(|inner| {
            let pick = |f: &dyn Fn(&Open) -> bool| -> Vec<ChallengeView> {
                inner
                    .open
                    .iter()
                    .filter(|c| f(c))
                    .map(|c| c.view.clone())
                    .collect()
            };
            (
                pick(&|c| c.to.id == player && !c.hidden),
                pick(&|c| c.from.id == player),
            )
        })
    }

    /// `player`'s account was deleted: every challenge from or to it is withdrawn (each other
    /// side told), as if its lobby closed.
    pub fn player_gone(&self, player: PlayerId) {
        self.end(
            |c| c.from.id == player || c.to.id == player,
            Gone::Ended(ChallengeEnd::Cancelled),
        );
    }

    /// The `challenges` message of `player` (its incoming challenges it may see, its outgoing
    /// ones), or `None` when it has none.
    #[must_use]
    pub fn list_for(&self, player: PlayerId) -> Option<String> {
        let (incoming, outgoing) = self.of_player(player);
        if incoming.is_empty() && outgoing.is_empty() {
            return None;
        }
        serde_json::to_string(&LobbyMessage::Challenges {
            incoming: &incoming,
            outgoing: &outgoing,
        })
        .ok()
    }

    /// Sends each of `players` its `challenges` message (an empty one when none is left).
    fn tell_lists(&self, players: &[PlayerId]) {
        for &p in players {
            let message = self.list_for(p).unwrap_or_else(|| {
                serde_json::to_string(&LobbyMessage::Challenges {
                    incoming: &[],
                    outgoing: &[],
                })
                .unwrap_or_default()
            });
            self.lobby.presence().tell(p, &message);
        }
    }
}

fn not_found() -> ApiError {
    ApiError::new(
        Code::ChallengeNotFound,
        "this challenge is no longer open: it was answered, withdrawn or expired",
    )
}
