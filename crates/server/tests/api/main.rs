//! API tests of the match service over real sockets (docs/protocol.md): each test gets a fresh
//! server on port 0 and a fresh SQLite file from `spawn_app()`.

mod abandon;
mod analysis;
mod bad_input;
mod basics;
mod bots;
mod chat;
mod clocks;
mod common;
mod downtime;
mod faults;
mod floods;
mod games;
mod history;
mod lifecycle;
mod limits;
mod naval_resign;
mod naval_secrecy;
mod pairing;
mod players;
mod ratings;
mod seeds;
mod simultaneous;
mod toy;
mod wire;
