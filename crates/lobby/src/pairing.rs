//! The lobby as quick pairing's host (the crate `plateau-pairing`): the tables it pairs become
//! ordinary matches here, and the ones nobody came to are called off here.

use std::sync::Arc;

use plateau_match::Catalogue;
use plateau_pairing::{Host, NewTable};

use crate::lobby::{Lobby, NewMatch};
use crate::model::ApiError;
use crate::players::PlayerId;
use plateau_store::Store;

impl Host for Lobby {
    fn catalogue(&self) -> &Catalogue {
        Lobby::catalogue(self)
    }

    fn store(&self) -> &Arc<dyn Store> {
        Lobby::store(self)
    }

    async fn create_table(&self, table: NewTable) -> Result<String, ApiError> {
        self.create_match(NewMatch {
            id: None,
            game: table.game,
            config: serde_json::Value::Null,
            seats: table.seats,
            time_control: table.time_control,
            seated: table.seated,
            seed: None,
            rated: table.rated,
            creator: table.creator,
        })
        .await
    }

    async fn call_off(&self, id: &str) -> Vec<PlayerId> {
        Lobby::call_off(self, id).await
    }
}
