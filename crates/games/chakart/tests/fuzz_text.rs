//! Mutated position and action texts never panic: each is read or refused with an error, and a
//! position that is read writes back to a text that reads back the same.

use plateau_chakart::{Action, Chakart, Config};
use plateau_engine::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SEEDS: [&str; 5] = [
    "erk2rq1/1m2e1m1/mppmne1m/p1BpppPp/mm1P1QbP/1Nmnw1dm/e1mP2d1/1BwR1RKN b 0 1111 000000000000",
    "k3P3/8/4m3/8/8/8/8/K7 w 0 1111 000000000000 =:e8,B",
    "4k3/8/8/8/8/8/I7/4K3 b 1 1011 000000000000",
    "rn1b2qk/pbppwppp/1w2p3/1p1Rm3/3PdnPr/4P1d1/PPP1mP1P/NNB1KRQB w 0 1111 000000000000 moves h1e4",
    "4k3/8/8/3d4/8/6N1/7e/4K3 w 0 1111 010000000000 T",
];
const ALPHABET: &[u8] = b"prnbqkPRNBQKsuoctlSUOCTLiImedwMEDW012345678910/ -:=,@*~BDTSxe2e4";

#[test]
fn mutated_texts_are_read_or_refused() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let config = Config::default();
    let mut accepted = 0;
    for i in 0..20_000 {
        let mut text: Vec<u8> = SEEDS[i % SEEDS.len()].as_bytes().to_vec();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..text.len());
            match rng.random_range(0..3) {
                0 => text[at] = ALPHABET[rng.random_range(0..ALPHABET.len())],
                1 => {
                    text.remove(at);
                }
                _ => text.insert(at, ALPHABET[rng.random_range(0..ALPHABET.len())]),
            }
            if text.is_empty() {
                text.push(b'8');
            }
        }
        let text = String::from_utf8(text).unwrap();
        if let Ok(state) = Chakart::parse_position(&config, &text) {
            accepted += 1;
            let written = state.format_position();
            let again = Chakart::parse_position(&config, &written)
                .unwrap_or_else(|e| panic!("`{text}` wrote `{written}`, which is refused: {e}"));
            assert_eq!(again.format_position(), written, "from `{text}`");
        }
        for token in text.split_whitespace() {
            if let Ok(a) = Action::parse(token) {
                assert_eq!(Action::parse(&a.text()), Ok(a), "{token}");
            }
        }
    }
    assert!(
        accepted > 100,
        "only {accepted} mutated texts were valid positions"
    );
}
