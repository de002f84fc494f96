//! The WebSockets of the service (docs/protocol.md section 4): `session` runs a match's, reading
//! the client's messages, passing them to the match actor (`handle`) and writing the actor's
//! messages back; `socket` is what every socket keeps to, the lobby's too (its sizes, closes,
//! send timeout and message rate).

mod handle;
mod session;
mod socket;
mod woken;

pub use plateau_protocol::{ActionRequest, ClientMessage, MAX_TURN_ACTIONS};
pub use session::session;
pub use socket::{
    BROKEN, EVICTED, Heard, IDLE, MAX_MESSAGE, NOT_UTF8, PING, PONG, Rate, UNREADABLE,
    binary_refused, close, finish, parse_client_message, send_within, sized, too_large, unreadable,
};
