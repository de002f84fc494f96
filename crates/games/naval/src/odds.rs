//! Targeting odds for bots: how likely each cell of an opponent's board is to hold an unhit cell
//! of a ship, from what one seat knows (rules/naval.md section 13). Nothing here changes the rules;
//! the bots' policies (`policy`) aim with these maps.
//!
//! Three maps, in two modules (`full`: the first two; `quick`: the third):
//! - `Naval::odds` (`Odds`) counts, ship by ship, the footprints the viewer's information allows
//!   (the determinization model of `determinize`: misses, sunk ships, buoys shown sunk, torpedo
//!   lanes, charges, the viewer's satellite, sonar and radar results), each weighed by how many of
//!   the hits nobody has explained yet it covers: hunt where many footprints fit, target around
//!   hits. Ship by ship, every hidden ship claims each unexplained hit, so the cells around a hit
//!   read near certain and the hunting cells elsewhere too low.
//! - `Naval::sampled_odds` (`Odds` too) is the share of whole layouts, drawn by the
//!   determinization from the same model, in which a cell holds an unhit ship cell: the pieces
//!   share the board and the hits (a hit is one piece's, a buoy's or a ship's), so it estimates
//!   the chances themselves. It costs a layout per sample and aims better: the strongest bot's.
//! - `Naval::quick_odds` (`QuickOdds`) is the playouts' cheap version, made with shifts of the bit
//!   boards from public markers alone (misses, hits, sunk ships, first hits, clear torpedo lanes,
//!   cleared submarine cells, deflections): the chase is the counted odds of the footprints over
//!   an unexplained hit (each ship afloat, weighed as in `Naval::odds`, normalised over all its
//!   footprints clear of what is known empty); the other open cells share the ship cells left
//!   unexplained, half again as much on the cells most footprints cover (the hunt). It skips the
//!   viewer's own detections and the pieces known exactly, and the submarine's own map.
//!
//! All read only public markers and the viewer's own detections, never a hidden layout, so they
//! can be computed on the true state or on any determinization for the viewer with the same
//! result (the sampled map given the same random generator).

mod full;
mod quick;

pub use full::Odds;
pub use quick::QuickOdds;
