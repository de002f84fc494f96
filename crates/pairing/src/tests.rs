//! The pairing rules, without a lobby.

use super::tables::*;
use super::*;
use plateau_store::players::{Player, PlayerId, PlayerKind};

fn seeker(conn: u64, rating: f64, waited: u64, bots_after: Option<u64>) -> Seeker {
    let (out, _) = mpsc::channel(1);
    Seeker {
        seek: conn,
        partner: None,
        conn,
        player: Player {
            id: PlayerId(conn as i64),
            name: format!("p{conn}"),
            kind: PlayerKind::Guest,
            created_at: 0,
        },
        address: None,
        rating,
        since: Instant::now() - Duration::from_secs(waited),
        since_ms: 0,
        bots_after: bots_after.map(Duration::from_secs),
        bot: "club".into(),
        out,
        blocks: Vec::new(),
    }
}

#[test]
fn players_one_of_whom_blocks_the_other_never_sit_together() {
    let now = Instant::now();
    let mut pool = [
        seeker(1, 1500.0, 10, None),
        seeker(2, 1510.0, 0, None),
        seeker(3, 1600.0, 0, None),
    ];
    // 2 blocks 1: 1 sits with 3, the next closest, whoever blocks whom.
    pool[1].blocks = vec![PlayerId(1)];
    assert_eq!(next_table(&pool, 2, now).unwrap().conns, vec![1, 3]);
    pool[1].blocks.clear();
    pool[0].blocks = vec![PlayerId(2)];
    assert_eq!(next_table(&pool, 2, now).unwrap().conns, vec![1, 3]);
    // At a table of three, two who shun each other leave it short: nobody is seated.
    assert!(next_table(&pool, 3, now).is_none());
    pool[0].blocks.clear();
    assert_eq!(next_table(&pool, 3, now).unwrap().conns, vec![1, 2, 3]);
}

#[test]
fn the_longest_waiting_seeker_gets_the_closest_ratings_within_the_window() {
    let now = Instant::now();
    // 1500 waited 10 s (window 700); 1550 and 1900 are inside it, 2400 is not.
    let pool = [
        seeker(1, 1500.0, 10, None),
        seeker(2, 2400.0, 0, None),
        seeker(3, 1900.0, 0, None),
        seeker(4, 1550.0, 0, None),
    ];
    let t = next_table(&pool, 2, now).unwrap();
    assert_eq!((t.conns, t.bots), (vec![1, 4], 0));
    // A newcomer's window is 200 points: 1500 and 1800 wait for each other.
    let apart = [seeker(1, 1500.0, 0, None), seeker(2, 1800.0, 0, None)];
    assert!(next_table(&apart, 2, now).is_none());
    // Bots fill a table once the wait is over, with the seekers that accept them.
    let few = [
        seeker(1, 1500.0, 6, Some(5)),
        seeker(2, 1500.0, 1, None),
        seeker(3, 1520.0, 1, Some(30)),
    ];
    let t = next_table(&few, 4, now).unwrap();
    assert_eq!((t.conns, t.bots), (vec![1, 3], 2));
    assert!(next_table(&few[1..], 4, now).is_none(), "no wait is over");
    // A challenge accepted pairs whatever the ratings, and before a closer seeker.
    let mut taker = seeker(3, 2400.0, 0, None);
    taker.partner = Some(2);
    let accepted = [
        seeker(1, 1500.0, 10, None),
        seeker(2, 1500.0, 5, None),
        taker,
    ];
    let t = next_table(&accepted[1..], 2, now).unwrap();
    assert_eq!(t.conns, vec![2, 3]);
    let t = next_table(&accepted, 2, now).unwrap();
    assert_eq!(
        t.conns,
        vec![1, 2],
        "the longest waiting first, with the closest"
    );
}

#[test]
fn the_estimate_is_the_median_of_the_last_waits() {
    let key = PoolKey {
        game: "mad".into(),
        seats: 2,
        time_control: "{}".into(),
        rated: true,
    };
    let mut waits = Waits::default();
    assert_eq!(waits.estimate(&key), None);
    for ms in [4_000, 61_000, 9_500] {
        waits.record(&key, Duration::from_millis(ms));
    }
    assert_eq!(waits.estimate(&key), Some(10));
    for _ in 0..WAITS_KEPT {
        waits.record(&key, Duration::from_secs(2));
    }
    assert_eq!(waits.estimate(&key), Some(2), "only the last waits count");
}
