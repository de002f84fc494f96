use super::*;

/// Each bad FEN is refused with a message naming the field and the offending token.
#[test]
fn bad_fens_name_the_field() {
    let cases = [
        // wrong rank length
        (
            "4k4/8/8/8/8/8/8/4K3 w 0 1111 000000000000",
            "board field: rank 8 covers 9",
            "4k4",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2 w 0 1111 000000000000",
            "board field: rank 1 covers 7",
            "4K2",
        ),
        (
            "4k3/8/8/8/8/8/4K3 w 0 1111 000000000000",
            "board field: expected 8 ranks",
            "",
        ),
        // unknown letters (uppercase items included)
        (
            "4k3/8/8/8/4x3/8/8/4K3 w 0 1111 000000000000",
            "board field: unknown letter in rank 4",
            "x",
        ),
        (
            "4k3/8/8/8/4M3/8/8/4K3 w 0 1111 000000000000",
            "board field: unknown letter",
            "M",
        ),
        // missing fields
        (
            "4k3/8/8/8/8/8/8/4K3 w 0 1111",
            "the captured pool field is missing",
            "",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w",
            "the moves count field is missing",
            "",
        ),
        ("4k3/8/8/8/8/8/8/4K3", "the turn field is missing", ""),
        // bad fields
        (
            "4k3/8/8/8/8/8/8/4K3 x 0 1111 000000000000",
            "turn field",
            "x",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w -1 1111 000000000000",
            "moves count field",
            "-1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w 0 111 000000000000",
            "flags field",
            "111",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w 0 1111 00000000000",
            "captured pool field: expected 12 digits",
            "00000000000",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w 0 1111 0000000000000",
            "captured pool field",
            "0000000000000",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w 0 1111 1,2,3",
            "comma form holds 12 numbers, not 3",
            "1,2,3",
        ),
        // kings
        (
            "8/8/8/8/8/8/8/4K3 w 0 1111 000000000000",
            "Black has no king",
            "",
        ),
        (
            "4k3/8/8/8/8/8/8/8 w 0 1111 000000000000",
            "White has no king",
            "",
        ),
        // ruling 10's other checks
        (
            "4k2P/8/8/8/8/8/8/4K3 w 0 1111 000000000000",
            "pawn stands on its last rank at h8",
            "",
        ),
        (
            "4k3/8/8/8/8/8/I7/4K3 w 0 1011 000000000000",
            "belongs to the side to move",
            "",
        ),
        (
            "4k3/8/8/8/8/8/I7/4K3 b 0 1111 000000000000",
            "stealth flag is still 1",
            "",
        ),
        (
            "4k3/8/8/8/8/8/II6/4K3 b 0 1011 000000000000",
            "two invisible queens",
            "",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w 0 1111 000000000000 T",
            "Toadette with an empty pool",
            "T",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w 0 1111 000000000000 B:e8",
            "names no movable piece",
            "B:e8",
        ),
        (
            "4k3/8/8/8/8/8/8/4L3 w 0 1111 000000000000 D:e1",
            "names no movable piece",
            "D:e1",
        ),
        (
            "4k3/8/8/8/8/8/P7/4K3 w 0 1111 000000000000 =:a2",
            "names no pawn",
            "=:a2",
        ),
        (
            "k3S3/8/8/8/8/8/8/K7 w 0 1111 000000000000 =:e8,B",
            "only when no bonus follows",
            "",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w 0 1111 000000000000 X",
            "pending field",
            "X",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w 0 1111 000000000000 - extra",
            "at most 6 fields",
            "extra",
        ),
    ];
    for (fen, message, token) in cases {
        let e = parse(fen).expect_err(fen);
        let e = e.position_error().expect("a position error");
        assert!(e.message.contains(message), "{fen}: {e}");
        if !token.is_empty() {
            assert_eq!(e.token, token, "{fen}: {e}");
        }
    }
}

#[test]
fn fens_round_trip() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 1111 000000000000",
        "erk2rq1/1m2e1m1/mppmne1m/p1BpppPp/mm1P1QbP/1Nmnw1dm/e1mP2d1/1BwR1RKN b 0 1111 000000000000",
        "4k3/8/8/8/8/8/I7/4K3 b 1 1011 000000000000",
        "k3S3/8/4m3/8/8/8/8/K7 w 0 1111 000000000000 =:e8",
        "k3P3/8/4m3/8/8/8/8/K7 w 0 1111 000000000000 =:e8,D",
        "4k3/8/8/8/8/8/8/4L3 b 7 0101 10,0,0,0,0,0,0,0,0,0,0,1",
    ] {
        assert_eq!(format(&parse(fen).unwrap()), fen);
    }
    // A 6th field `-` is accepted between turns and not written back.
    let p = parse("4k3/8/8/8/8/8/8/4K3 w 0 1111 000000000000 -").unwrap();
    assert_eq!(format(&p), "4k3/8/8/8/8/8/8/4K3 w 0 1111 000000000000");
}
