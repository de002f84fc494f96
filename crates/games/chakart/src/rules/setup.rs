//! The random initial rows of options 1 and 2 (rules/chakart.md section 4, ruling 19): one
//! chance node per piece of a back row, drawing its file among those still free.

use super::{Phase, Pos};
use crate::board::{Kind, Side, Square, piece};

/// The piece list of the random initial row, placed in this order (ruling 19).
pub const SETUP_ORDER: [Kind; 8] = [
    Kind::Bishop,
    Kind::Bishop,
    Kind::Rook,
    Kind::Rook,
    Kind::Knight,
    Kind::Knight,
    Kind::King,
    Kind::Queen,
];

impl Pos {
    /// The position before the setup nodes of option 1 or 2: pawns only.
    #[must_use]
    pub fn before_setup(option: u8) -> Pos {
        let mut p = Pos::empty();
        for f in 0..8u8 {
            p.board[Square::at(f, 1).index()] = piece(Side::White, Kind::Pawn);
            p.board[Square::at(f, 6).index()] = piece(Side::Black, Kind::Pawn);
        }
        p.phase = Phase::Setup {
            side: Side::White,
            n: 0,
            files: [0; 7],
        };
        p.option = option;
        p
    }

    /// The back rank row for the files given to the entries of `SETUP_ORDER`, with the bishop
    /// fix applied: kinds by file.
    #[must_use]
    pub fn setup_row(files: &[u8; 8]) -> [Kind; 8] {
        let mut row = [Kind::Pawn; 8];
        let mut f = *files;
        if f[0] % 2 == f[1] % 2 {
            // The second bishop changes places with the first later entry on the other colour.
            if let Some(j) = (2..8).find(|&j| f[j] % 2 != f[1] % 2) {
                f.swap(1, j);
            }
        }
        for (i, &fl) in f.iter().enumerate() {
            row[usize::from(fl)] = SETUP_ORDER[i];
        }
        row
    }

    /// The setup node's outcome: the next entry of `SETUP_ORDER` goes to file `fl`; the last
    /// entry takes the file left, and the row gets the bishop fix.
    pub(super) fn setup(&mut self, fl: u8) {
        let Phase::Setup {
            side,
            mut n,
            mut files,
        } = self.phase
        else {
            return;
        };
        let rank = side.first_rank();
        files[usize::from(n)] = fl;
        self.board[Square::at(fl, rank).index()] = piece(side, SETUP_ORDER[usize::from(n)]);
        n += 1;
        if n < 7 {
            self.phase = Phase::Setup { side, n, files };
            return;
        }
        let last = (0..8u8).find(|x| !files.contains(x)).unwrap_or(0);
        let all = [
            files[0], files[1], files[2], files[3], files[4], files[5], files[6], last,
        ];
        let row = Pos::setup_row(&all);
        for (fl, k) in (0..8u8).zip(row) {
            self.board[Square::at(fl, rank).index()] = piece(side, k);
            if side == Side::White && self.option == 1 {
                self.board[Square::at(fl, 7).index()] = piece(Side::Black, k);
            }
        }
        self.phase = if side == Side::White && self.option != 1 {
            Phase::Setup {
                side: Side::Black,
                n: 0,
                files: [0; 7],
            }
        } else {
            Phase::Move
        };
    }
}
