use super::*;

#[test]
fn letters_round_trip() {
    for ch in "prnbqkPRNBQKsuoctlSUOCTLiImedw".chars() {
        let c = letter_cell(ch).unwrap();
        assert!(is_valid_cell(c), "{ch}");
        assert_eq!(cell_letter(c), Some(ch));
    }
    for ch in "MEDWxX1".chars() {
        assert_eq!(letter_cell(ch), None, "{ch}");
    }
    assert!(!is_valid_cell(5) && !is_valid_cell(PIECE | 6));
    assert!(!is_valid_cell(piece(Side::White, Kind::Rook) | HIDDEN));
}

#[test]
fn geometry() {
    let e4 = Square::parse("e4").unwrap();
    assert_eq!(e4.index(), 28);
    assert_eq!(e4.to_string(), "e4");
    assert_eq!(Square::at(0, 0).offset(-1, 0), None);
    assert_eq!(JUMPS[0].iter().flatten().count(), 2);
    assert_eq!(RAY[0][60], None);
    assert_eq!(Square::new(64), None);
    assert_eq!(Square::parse("i1"), None);
    assert!(serde_json::from_str::<Square>("64").is_err());
    assert_eq!(serde_json::from_str::<Square>("28").unwrap(), e4);
}

#[test]
fn sides_and_cells() {
    let white_rook = piece(Side::White, Kind::Rook);
    assert_eq!(side_of(white_rook), Side::White);
    assert_eq!(side_of(with_other_side(white_rook)), Side::Black);
    assert_eq!(kind(with_other_side(white_rook)), Kind::Rook);
    assert_eq!(Side::Black.last_rank(), 0);
    assert_eq!(Side::White.first_rank(), 0);
    assert_eq!(Side::of_seat(Seat(1)), Some(Side::Black));
}
