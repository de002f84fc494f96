//! `plateau perft <game> <position|start> <depth>`: the number of nodes at exactly `depth` levels
//! below the position, printed last (docs/architecture.md section 3.2).
//!
//! Levels are counted as `plateau_engine::perft` counts them: every seat decision is a level, so is
//! every chance outcome, and at a simultaneous node each (seat, action) pair is a child; a line
//! that ends early adds nothing. The command drives the game through `DynGame` (canonical text), so
//! it works for any registered game; it is a checking tool, not the fast path (each game crate
//! benchmarks its typed `perft`).
//!
//! With `--decisions-only`, chance outcomes are not levels: only seat decisions are counted, and
//! every chance node met on the way is expanded into all its outcomes (so a decision whose random
//! effect has k outcomes counts k times). This is the "player moves only" count of games with random
//! effects (Chakart).
//!
//! With `--divide`, each child of the position comes first as `<action> <count>`, sorted by byte
//! order (`<seat> <action> <count>` at a simultaneous node).

use plateau_engine::{Actor, DynGame, ToAct};

use crate::common::{CliResult, emit, find_game, load_state, parse_config};

/// Arguments of `plateau perft`.
#[derive(clap::Args)]
pub struct Args {
    /// Registry name of the game, e.g. `mad`.
    game: String,
    /// A position in the game's notation, or `start`.
    position: String,
    /// Depth in levels (plies and chance outcomes); 0 counts the position itself.
    depth: u32,
    /// Print each child's count before the total.
    #[arg(long)]
    divide: bool,
    /// Count seat decisions only: chance outcomes are expanded but are not levels.
    #[arg(long)]
    decisions_only: bool,
    /// Seats at the table, for `start` (default: the game's usual number).
    #[arg(long)]
    players: Option<usize>,
    /// The game's config as JSON (default: the standard game).
    #[arg(long, value_name = "JSON")]
    config: Option<String>,
}

/// Counts and prints.
pub fn run(args: Args) -> CliResult {
    let entry = find_game(&args.game)?;
    let config = parse_config(args.config.as_deref())?;
    let state = load_state(entry, &config, &args.position, args.players)?;
    let mut text = String::new();
    let total = if args.divide && args.depth > 0 {
        let mut rows = Vec::new();
        let mut total = 0;
        for child in children(&*state) {
            let below = args.depth - level(&child, args.decisions_only);
            let count = count(&*play(&*state, &child)?, below, args.decisions_only)?;
            total += count;
            rows.push(format!("{} {count}\n", child.label()));
        }
        rows.sort_unstable();
        rows.iter().for_each(|row| text.push_str(row));
        total
    } else {
        count(&*state, args.depth, args.decisions_only)?
    };
    text.push_str(&format!("{total}\n"));
    emit(&text)
}

/// One edge of the game tree: who acts and the action's canonical text.
struct Child {
    actor: Actor,
    action: String,
    /// Whether the node is simultaneous, so that the seat must be shown with the action.
    simultaneous: bool,
}

impl Child {
    /// The child as `--divide` prints it.
    fn label(&self) -> String {
        match (self.simultaneous, self.actor) {
            (true, Actor::Seat(seat)) => format!("{seat} {}", self.action),
            _ => self.action.clone(),
        }
    }
}

/// Every edge leaving `state`, in the order `plateau_engine::perft::for_each_child` walks them.
fn children(state: &dyn DynGame) -> Vec<Child> {
    let seat_child = |simultaneous| {
        move |(seat, action)| Child {
            actor: Actor::Seat(seat),
            action,
            simultaneous,
        }
    };
    match state.to_act() {
        ToAct::Terminal => Vec::new(),
        ToAct::Chance => state
            .chance_texts()
            .into_iter()
            .map(|(action, _)| Child {
                actor: Actor::Chance,
                action,
                simultaneous: false,
            })
            .collect(),
        ToAct::Player(seat) => state
            .legal_texts(seat)
            .into_iter()
            .map(|a| (seat, a))
            .map(seat_child(false))
            .collect(),
        ToAct::Simultaneous(set) => set
            .iter()
            .flat_map(|seat| state.legal_texts(seat).into_iter().map(move |a| (seat, a)))
            .map(seat_child(true))
            .collect(),
    }
}

/// The state after `child`. A listed action that does not apply is a bug of the game's notation
/// or move generator, reported as an error rather than a panic.
fn play(state: &dyn DynGame, child: &Child) -> CliResult<Box<dyn DynGame>> {
    let mut next = state.clone_box();
    next.apply_text(child.actor, &child.action).map_err(|e| {
        format!(
            "the listed action `{}` of {} does not apply ({e}) in position {}",
            child.action,
            child.actor,
            state.position_text()
        )
    })?;
    Ok(next)
}

/// How many levels `child` goes down: 1, or 0 for a chance outcome under `--decisions-only`.
fn level(child: &Child, decisions_only: bool) -> u32 {
    u32::from(!(decisions_only && child.actor == Actor::Chance))
}

/// Nodes exactly `depth` levels below `state`.
fn count(state: &dyn DynGame, depth: u32, decisions_only: bool) -> CliResult<u64> {
    if depth == 0 {
        return Ok(1);
    }
    let children = children(state);
    let chance_free = !(decisions_only && state.to_act() == ToAct::Chance);
    if depth == 1 && chance_free {
        return Ok(children.len() as u64);
    }
    let mut total = 0;
    for child in &children {
        let below = depth - level(child, decisions_only);
        total += count(&*play(state, child)?, below, decisions_only)?;
    }
    Ok(total)
}
