//! `plateau serve --config FILE` and `--print-config` (docs/deploy.md, "Configuration"): a TOML
//! file of `plateau serve`'s settings, which `plateau admin --config FILE` reads too for the
//! settings it shares with serve (`shared`: the database).
//!
//! The flags stay the one definition of each setting. A key of the file is a flag's long name
//! with `_` for `-` (`bot_delay_ms = 0` for `--bot-delay-ms 0`); its value is checked by the
//! flag's own parser and becomes the flag's default, so clap's order decides: the command line,
//! then the flag's `PLATEAU_*` variable, then the file, then the built-in default.

use std::path::Path;

use clap::{Arg, ArgMatches, Command};

/// The arguments of `plateau serve` that are not settings of the server: never read from a file
/// nor printed into one.
const NOT_SETTINGS: &[&str] = &["config", "print_config", "help"];

/// Placeholder printed for a password.
const MASK: &str = "********";

/// The file's key for flag `arg`, if it is a setting.
fn key(arg: &Arg) -> Option<String> {
    if NOT_SETTINGS.contains(&arg.get_id().as_str()) {
        return None;
    }
    arg.get_long().map(|long| long.replace('-', "_"))
}

/// Whether `arg` takes several values (a repeatable flag such as `--trusted-proxy`).
fn is_list(arg: &Arg) -> bool {
    matches!(arg.get_action(), clap::ArgAction::Append)
}

/// `serve` (the subcommand's definition) with the values the TOML file at `path` gives as its
/// flags' defaults.
///
/// # Errors
/// The file cannot be read or is no TOML; a key is no setting of `plateau serve`; a value is not
/// one its flag takes (the message names the file, the key, the value and what was expected).
pub fn with_file(mut serve: Command, path: &Path) -> Result<Command, String> {
    let file = path.display();
    let text = crate::common::read_settings_file(path)
        .map_err(|e| format!("the configuration file: {e}"))?;
    let table: toml::Table =
        toml::from_str(&text).map_err(|e| format!("{file} is not a TOML file: {e}"))?;
    for (name, value) in &table {
        let Some(arg) = serve
            .get_arguments()
            .find(|arg| key(arg).as_deref() == Some(name.as_str()))
            .cloned()
        else {
            let known: Vec<String> = serve.get_arguments().filter_map(key).collect();
            return Err(format!(
                "{file}: unknown key `{name}`: the keys are plateau serve's flags with `_` for \
                 `-` ({})",
                known.join(", ")
            ));
        };
        let values = flag_values(&arg, value).and_then(|values| {
            for one in &values {
                check(&arg, one)?;
            }
            Ok(values)
        });
        let values = values.map_err(|why| {
            format!(
                "{file}: `{name} = {value}`: {why}; expected {}",
                expected(&arg)
            )
        })?;
        serve = serve.mut_arg(arg.get_id().clone(), |a| a.default_values(values));
    }
    Ok(serve)
}

/// `other` (the definition of a subcommand that acts on serve's database, `plateau admin`)
/// with the defaults that `serve` takes from the TOML file at `path` (`with_file`), for the
/// flags it shares with serve by name (`--database`): it finds what serve would, in the same
/// order (its command line, then the flag's `PLATEAU_*` variable, then the file, then serve's
/// built-in default).
///
/// # Errors
/// As `with_file`: the file is read and checked as serve reads it.
pub fn shared(serve: Command, path: &Path, mut other: Command) -> Result<Command, String> {
    let serve = with_file(serve, path)?;
    for arg in serve.get_arguments().filter(|arg| key(arg).is_some()) {
        let defaults = arg.get_default_values().to_vec();
        if !defaults.is_empty() && other.get_arguments().any(|a| a.get_id() == arg.get_id()) {
            other = other.mut_arg(arg.get_id().clone(), |a| a.default_values(defaults));
        }
    }
    Ok(other)
}

/// The flag values a TOML value stands for: a list only for a repeatable flag, `true` or `false`
/// for a switch such as `--test-seeds`.
fn flag_values(arg: &Arg, value: &toml::Value) -> Result<Vec<String>, String> {
    let scalar = |value: &toml::Value| match value {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(n) => Ok(n.to_string()),
        toml::Value::Float(x) => Ok(x.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        toml::Value::Datetime(_) | toml::Value::Table(_) | toml::Value::Array(_) => Err(format!(
            "a {} is no value of this setting",
            value.type_str()
        )),
    };
    if !arg.get_action().takes_values() {
        return match value {
            toml::Value::Boolean(b) => Ok(vec![b.to_string()]),
            other => Err(format!("a {} is no switch", other.type_str())),
        };
    }
    match value {
        toml::Value::Array(items) if is_list(arg) => items.iter().map(scalar).collect(),
        toml::Value::Array(_) => Err("this setting takes one value, not a list".into()),
        one => Ok(vec![scalar(one)?]),
    }
}

/// Checks one value with its flag's parser, as the command line would read it.
fn check(arg: &Arg, value: &str) -> Result<(), String> {
    if !arg.get_action().takes_values() {
        return Ok(());
    }
    let long = arg.get_long().unwrap_or_default();
    let alone = arg.clone().env(None).required(false);
    let parsed = Command::new("serve")
        .no_binary_name(true)
        .arg(alone)
        .try_get_matches_from([format!("--{long}={value}")]);
    parsed.map(drop).map_err(|e| {
        use std::error::Error as _;
        match e.source() {
            Some(cause) => cause.to_string(),
            None => "not a value of this setting".into(),
        }
    })
}

/// What `arg` takes, for an error: its possible values, or what its help says.
fn expected(arg: &Arg) -> String {
    if !arg.get_action().takes_values() {
        return "`true` or `false`".into();
    }
    let possible: Vec<String> = arg
        .get_possible_values()
        .iter()
        .map(|p| format!("`{}`", p.get_name()))
        .collect();
    if !possible.is_empty() {
        return format!("one of {}", possible.join(", "));
    }
    let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
    let first = help.split(". ").next().unwrap_or_default();
    format!(
        "what --{} takes: {}",
        arg.get_long().unwrap_or_default(),
        first.trim_end_matches('.')
    )
}

/// The effective settings of `matches` (parsed by `serve`) as a TOML file that `with_file`
/// reads back: every setting with a value, from wherever it came. The settings given nowhere
/// that have no fixed default (`node`, the limits, ...: the server chooses) are named in a
/// comment. A password in the database's URL is masked, with a comment saying so.
#[must_use]
pub fn print(serve: &Command, matches: &ArgMatches) -> String {
    let mut table = toml::Table::new();
    let mut masked = false;
    let mut unset = Vec::new();
    for arg in serve.get_arguments() {
        let Some(key) = key(arg) else { continue };
        let id = arg.get_id().as_str();
        if !arg.get_action().takes_values() {
            table.insert(key, toml::Value::Boolean(matches.get_flag(id)));
            continue;
        }
        let Some(raw) = matches.get_raw(id) else {
            unset.push(key);
            continue;
        };
        let mut values: Vec<toml::Value> = raw
            .map(|v| {
                let text = v.to_string_lossy();
                match mask_password(&text) {
                    Some(hidden) => {
                        masked = true;
                        toml::Value::String(hidden)
                    }
                    None => typed(&text),
                }
            })
            .collect();
        if is_list(arg) {
            table.insert(key, toml::Value::Array(values));
        } else if let Some(one) = values.pop() {
            table.insert(key, one);
        }
    }
    let mut out = String::from(
        "# plateau serve's settings (docs/deploy.md, \"Configuration\"): the command line\n\
         # overrides the PLATEAU_* variables, which override this file.\n",
    );
    if masked {
        out.push_str(&format!(
            "# The database password is masked as {MASK}: write it in, or give the whole URL\n\
             # in PLATEAU_DATABASE.\n"
        ));
    }
    if !unset.is_empty() {
        out.push_str("# Not set, so the server's own choice (plateau serve --help):");
        let mut width = 80;
        for (i, key) in unset.iter().enumerate() {
            if width + key.len() > 90 {
                out.push_str("\n#");
                width = 1;
            }
            let end = if i + 1 == unset.len() { "." } else { "," };
            out.push_str(&format!(" {key}{end}"));
            width += key.len() + 2;
        }
        out.push('\n');
    }
    out.push_str(&table.to_string());
    out
}

/// A flag's value as TOML: `true`/`false` as booleans, numbers as numbers (each printed as
/// the flag would read it again), anything else a string.
fn typed(text: &str) -> toml::Value {
    match text {
        "true" => return toml::Value::Boolean(true),
        "false" => return toml::Value::Boolean(false),
        _ => {}
    }
    if let Ok(n) = text.parse::<i64>()
        && n.to_string() == text
    {
        return toml::Value::Integer(n);
    }
    if text.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && let Ok(x) = text.parse::<f64>()
        && x.to_string() == text
    {
        return toml::Value::Float(x);
    }
    toml::Value::String(text.to_owned())
}

/// `url` with the password of its user (`postgres://USER:PASSWORD@HOST`) or its `password=`
/// parameter replaced by `MASK`; `None` when it has neither.
fn mask_password(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let mut hidden = false;
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => {
                hidden = true;
                format!("{name}:{MASK}@{host}")
            }
            None => authority.to_owned(),
        },
        None => authority.to_owned(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let query: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some(("password", _)) => {
                        hidden = true;
                        format!("password={MASK}")
                    }
                    _ => pair.to_owned(),
                })
                .collect();
            format!("{path}?{}", query.join("&"))
        }
        None => tail.to_owned(),
    };
    hidden.then(|| format!("{scheme}://{authority}{tail}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_in_database_urls_are_masked() {
        assert_eq!(
            mask_password("postgres://plateau:s3cr:et@10.0.0.5:5432/plateau").as_deref(),
            Some("postgres://plateau:********@10.0.0.5:5432/plateau")
        );
        assert_eq!(
            mask_password("postgres://plateau@/db?host=/run/postgresql&password=x").as_deref(),
            Some("postgres://plateau@/db?host=/run/postgresql&password=********")
        );
        assert_eq!(mask_password("postgres://plateau@10.0.0.5/plateau"), None);
        assert_eq!(mask_password("sqlite://plateau.sqlite"), None);
    }

    #[test]
    fn values_are_printed_with_their_toml_types() {
        assert_eq!(typed("250"), toml::Value::Integer(250));
        assert_eq!(typed("2.5"), toml::Value::Float(2.5));
        assert_eq!(typed("false"), toml::Value::Boolean(false));
        // Read back, each gives the flag the same text again.
        for text in [
            "007",
            "+3",
            "1e3",
            "nan",
            "inf",
            "127.0.0.1:8080",
            "10.0.0.0/24",
        ] {
            assert_eq!(typed(text), toml::Value::String(text.into()), "{text}");
        }
    }
}
