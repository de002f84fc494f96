//! The legal actions as a person reads them at the prompt (`?`, `help`, `moves`): grouped by what
//! they start with and wrapped to the terminal's width.

/// The width the legal list is wrapped to, in characters.
pub(super) const LISTING_WIDTH: usize = 100;

/// The legal actions for people: those sharing a head (the text before `@` or the first space:
/// a piece being placed, `carrier@c3h`, or a ship's kind of order, `cruiser:fire 2:f7`) on one
/// line each, `head (count): rest rest ...`; the others together. Every line is indented by two
/// spaces and wrapped at `width`, so a list of 1,771 placements reads as nine lines of pieces,
/// not one line.
pub(super) fn listing(texts: &[String], width: usize) -> String {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (h, rest) in texts.iter().filter_map(|t| head(t)) {
        match groups.iter_mut().find(|(g, _)| *g == h) {
            Some((_, items)) => items.push(rest),
            None => groups.push((h, vec![rest])),
        }
    }
    // A head with a single action reads best as that action, among the others.
    groups.retain(|(_, items)| items.len() > 1);
    let loose: Vec<&str> = texts
        .iter()
        .map(String::as_str)
        .filter(|t| head(t).is_none_or(|(h, _)| groups.iter().all(|(g, _)| *g != h)))
        .collect();
    let mut out = String::new();
    if !loose.is_empty() {
        wrap(&mut out, "", &loose, width);
    }
    for (h, items) in groups {
        wrap(&mut out, &format!("{h} ({}): ", items.len()), &items, width);
    }
    out
}

/// The head and the rest of an action's text, split at the first `@` (kept with the head, so
/// `carrier@ (2): a1h a1v` reads as `carrier@a1h`) or space (`cruiser:fire (40): 2:a1`).
fn head(text: &str) -> Option<(&str, &str)> {
    text.find(['@', ' ']).map(|i| {
        let cut = if text.as_bytes()[i] == b'@' { i + 1 } else { i };
        (&text[..cut], &text[i + 1..])
    })
}

/// Writes `lead` then `items` separated by spaces, two spaces in from the margin and wrapped at
/// `width` (continuation lines indented under the first item).
fn wrap(out: &mut String, lead: &str, items: &[&str], width: usize) {
    let indent = 2 + lead.chars().count();
    let mut line = format!("  {lead}");
    let mut empty = true;
    for item in items {
        if !empty && line.chars().count() + 1 + item.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = " ".repeat(indent);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(item);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::listing;

    fn texts(list: &[&str]) -> Vec<String> {
        list.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn placements_are_listed_by_piece() {
        let legal = texts(&[
            "buoy1@a1",
            "buoy1@a2",
            "carrier@a1h",
            "carrier@a1v",
            "ready",
        ]);
        assert_eq!(
            listing(&legal, 100),
            "  ready\n  buoy1@ (2): a1 a2\n  carrier@ (2): a1h a1v\n"
        );
    }

    #[test]
    fn long_groups_wrap_under_their_first_item() {
        let many: Vec<String> = (1..=40).map(|i| format!("cruiser:fire 2:a{i}")).collect();
        let text = listing(&many, 60);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 2, "{text}");
        assert!(
            lines[0].starts_with("  cruiser:fire (40): 2:a1 2:a2"),
            "{text}"
        );
        let indent = "  cruiser:fire (40): ".len();
        for line in &lines[1..] {
            assert!(line.len() <= 60, "{line}");
            assert_eq!(line.len() - line.trim_start().len(), indent, "{line}");
        }
        // Every action is there once.
        assert_eq!(text.matches("2:a").count(), 40);
    }

    #[test]
    fn actions_without_a_head_stay_together() {
        let legal = texts(&["c2-c3", "c2-c4", "P(111,222)", "carrier:pass"]);
        assert_eq!(
            listing(&legal, 100),
            "  c2-c3 c2-c4 P(111,222) carrier:pass\n"
        );
    }
}
