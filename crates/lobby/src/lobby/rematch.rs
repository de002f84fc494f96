//! Offers and rematches (docs/protocol.md section 7.4): once every human seat asked, the rematch
//! is made as a new table, held to the limits on creating.

use plateau_engine::Seat;

use super::create::NewMatch;
use super::create::Table;
use super::state::Lobby;
use crate::model::{ApiError, SeatSpec};
use plateau_match::actor::{Command, OfferKind, RematchInfo};
use plateau_match::tokens::new_token;

impl Lobby {
    /// `seat` offers (or accepts) a rematch or an agreed stop (docs/protocol.md section 7.4).
    /// The rematch is created once every human seat has asked: same game, config, clock and
    /// rating, every seat (bots included) one place up, the players keeping their seats'
    /// players, a fresh seed.
    ///
    /// # Errors
    /// `match/not_over` (rematch), `offer/unsupported`, `match/not_started`, `match/over`.
    /// A rematch is a new table made by the client that completed the offers, from `addr`: it
    /// is held to the limits on creating (`creation_allowed`); refused, the offers are cleared,
    /// so the players may ask again later.
    pub async fn offer(
        &self,
        id: &str,
        seat: Seat,
        kind: OfferKind,
        addr: Option<std::net::IpAddr>,
    ) -> Result<(), ApiError> {
        let _guard = self.rematch_lock.lock().await;
        let info = self
            .call(id, |reply| Command::Offer { seat, kind, reply })
            .await?;
        let Some(info) = info else {
            return Ok(());
        };
        let creator = match self.creation_allowed(addr, Table::of(&info.specs)).await {
            Ok(creator) => creator,
            Err(e) => {
                self.decline(id, seat, OfferKind::Rematch).await?;
                return Err(e);
            }
        };
        let made = self.create_rematch(id, info, creator.clone()).await;
        if made.is_err()
            && let Some(key) = &creator
        {
            self.creation_refused(key);
        }
        made
    }

    async fn create_rematch(
        &self,
        id: &str,
        info: RematchInfo,
        creator: Option<String>,
    ) -> Result<(), ApiError> {
        let mut specs = info.specs;
        specs.rotate_right(1);
        let mut players = info.players;
        players.rotate_right(1);
        let mut seated = Vec::with_capacity(specs.len());
        let mut tokens = Vec::with_capacity(specs.len());
        for (spec, player) in specs.iter().zip(players) {
            match (spec, player) {
                (SeatSpec::Human, Some(player)) => {
                    let (token, hash) = new_token();
                    seated.push(Some((hash, player)));
                    tokens.push(Some(token));
                }
                _ => {
                    seated.push(None);
                    tokens.push(None);
                }
            }
        }
        let new_id = self
            .create_match(NewMatch {
                id: None,
                game: info.game,
                config: info.config,
                seats: specs,
                time_control: info.control,
                seated,
                seed: None,
                rated: info.rated,
                creator,
            })
            .await?;
        self.call(id, |reply| Command::RematchDone {
            id: new_id,
            tokens,
            reply,
        })
        .await
    }
}
