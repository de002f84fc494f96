//! API tests of the match service over real sockets (docs/protocol.md): each test gets a fresh
//! server on port 0 and a fresh database from `spawn_app()`: a SQLite file, or a schema on the
//! PostgreSQL server of `PLATEAU_TEST_POSTGRES` (common.rs).

mod abandon;
mod analysis;
mod assets;
mod bad_input;
mod basics;
mod bots;
mod challenges;
mod chat;
mod clocks;
mod common;
mod crowd;
mod data;
mod downtime;
mod faults;
mod floods;
mod friends;
mod games;
mod history;
mod lifecycle;
mod limits;
mod manners;
mod metrics;
mod moderation;
mod naval_resign;
mod naval_secrecy;
mod nodes;
mod pairing;
mod players;
mod proxy;
mod ratings;
mod seeds;
mod simultaneous;
mod tournament_follow;
mod tournament_schedule;
mod tournaments;
mod tournaments_rounds;
mod toy;
mod wire;
