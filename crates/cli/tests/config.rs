//! `plateau serve --config FILE`, its `PLATEAU_*` variables and `--print-config`: which setting
//! wins (the command line, then the environment, then the file, then the default), what the file
//! refuses, and that the printed settings read back (docs/deploy.md, "Configuration").

use std::path::PathBuf;
use std::process::{Command, Output};

const PLATEAU: &str = env!("CARGO_BIN_EXE_plateau");

/// A scratch file of this test run holding `text`.
fn file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("config-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// `plateau serve` with `args` and the environment's `PLATEAU_*` variables replaced by `env`.
fn serve(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(PLATEAU);
    command.arg("serve").args(args);
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("PLATEAU_") {
            command.env_remove(name);
        }
    }
    command.envs(env.iter().copied());
    command.output().expect("the plateau binary runs")
}

/// The settings `--print-config` prints for `args` and `env`, parsed.
fn printed(args: &[&str], env: &[(&str, &str)]) -> toml::Table {
    let mut all = args.to_vec();
    all.push("--print-config");
    let output = serve(&all, env);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    toml::from_str(&text).unwrap_or_else(|e| panic!("printed no TOML ({e}):\n{text}"))
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

const FILE: &str = r#"
addr = "127.0.0.1:18555"
bot_delay_ms = 40
messages_per_second = 2.5
scheduled_tournaments = false
test_seeds = true
trusted_proxy = ["10.0.0.10", "fd00::/64"]
log_format = "json"
"#;

#[test]
fn the_file_s_values_are_used() {
    let config = file("used.toml", FILE);
    let config = config.to_str().unwrap();
    let settings = printed(&["--config", config], &[]);
    assert_eq!(settings["addr"].as_str(), Some("127.0.0.1:18555"));
    assert_eq!(settings["bot_delay_ms"].as_integer(), Some(40));
    assert_eq!(settings["messages_per_second"].as_float(), Some(2.5));
    assert_eq!(settings["scheduled_tournaments"].as_bool(), Some(false));
    assert_eq!(settings["test_seeds"].as_bool(), Some(true));
    assert_eq!(settings["log_format"].as_str(), Some("json"));
    let proxies: Vec<&str> = settings["trusted_proxy"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(proxies, ["10.0.0.10", "fd00::/64"]);
    // What the file leaves out keeps its default.
    assert_eq!(settings["abandon_seconds"].as_integer(), Some(90));
    // The file may itself be named in the environment.
    let by_env = printed(&[], &[("PLATEAU_CONFIG", config)]);
    assert_eq!(by_env, settings);
    // Without the file, the defaults.
    let defaults = printed(&[], &[]);
    assert_eq!(defaults["bot_delay_ms"].as_integer(), Some(250));
    assert_eq!(defaults["test_seeds"].as_bool(), Some(false));
    assert!(!defaults.contains_key("trusted_proxy"));
}

#[test]
fn the_environment_beats_the_file_and_the_command_line_beats_both() {
    let config = file("order.toml", FILE);
    let config = config.to_str().unwrap();
    let env = [
        ("PLATEAU_BOT_DELAY_MS", "7"),
        ("PLATEAU_TRUSTED_PROXY", "10.0.0.20,10.0.0.21"),
        ("PLATEAU_SCHEDULED_TOURNAMENTS", "true"),
        ("PLATEAU_ABANDON_SECONDS", "45"),
    ];
    let settings = printed(&["--config", config], &env);
    assert_eq!(settings["bot_delay_ms"].as_integer(), Some(7));
    assert_eq!(settings["scheduled_tournaments"].as_bool(), Some(true));
    assert_eq!(settings["abandon_seconds"].as_integer(), Some(45));
    assert_eq!(
        settings["trusted_proxy"],
        toml::Value::Array(vec!["10.0.0.20".into(), "10.0.0.21".into()])
    );
    // Untouched by the environment: the file's.
    assert_eq!(settings["addr"].as_str(), Some("127.0.0.1:18555"));

    let settings = printed(
        &[
            "--config",
            config,
            "--bot-delay-ms",
            "9",
            "--trusted-proxy",
            "10.0.0.30",
            "--addr",
            "127.0.0.1:18556",
        ],
        &env,
    );
    assert_eq!(settings["bot_delay_ms"].as_integer(), Some(9));
    assert_eq!(
        settings["trusted_proxy"],
        toml::Value::Array(vec!["10.0.0.30".into()])
    );
    assert_eq!(settings["addr"].as_str(), Some("127.0.0.1:18556"));
    assert_eq!(settings["abandon_seconds"].as_integer(), Some(45));
}

#[test]
fn an_unknown_key_or_a_bad_value_is_refused_with_the_file_and_the_key() {
    let cases = [
        ("bot_dlay_ms = 5", vec!["unknown key `bot_dlay_ms`"]),
        (
            "bot_delay_ms = \"soon\"",
            vec!["`bot_delay_ms = \"soon\"`", "invalid digit", "expected"],
        ),
        (
            "password_hashes = 100",
            vec!["`password_hashes = 100`", "100 is not in 1..=64"],
        ),
        (
            "socket_idle_seconds = 0",
            vec!["`socket_idle_seconds = 0`", "0 is not in 1..=86400"],
        ),
        (
            "messages_per_second = -1.5",
            vec!["`messages_per_second = -1.5`", "a rate above 0"],
        ),
        (
            "log_format = \"xml\"",
            vec!["`log_format = \"xml\"`", "expected one of `text`, `json`"],
        ),
        (
            "test_seeds = \"yes\"",
            vec!["`test_seeds = \"yes\"`", "expected `true` or `false`"],
        ),
        (
            "addr = [\"127.0.0.1:1\", \"127.0.0.1:2\"]",
            vec!["one value, not a list"],
        ),
        (
            "trusted_proxy = [\"10.0.0.300\"]",
            vec!["neither an address"],
        ),
        ("[limits]\nbot_threads = 2", vec!["unknown key `limits`"]),
        ("addr = ", vec!["is not a TOML file", "line 1"]),
    ];
    for (text, words) in cases {
        let config = file("bad.toml", text);
        let output = serve(
            &["--config", config.to_str().unwrap(), "--print-config"],
            &[],
        );
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{text}: {message}");
        assert!(output.stdout.is_empty(), "{text}");
        assert!(!message.contains("panicked"), "{text}: {message}");
        assert!(
            message.contains(&*config.display().to_string()),
            "{text}: {message}"
        );
        for word in words {
            assert!(message.contains(word), "{text}: `{word}` in {message}");
        }
    }
    let missing = serve(&["--config", "/nonexistent/plateau.toml"], &[]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("/nonexistent/plateau.toml"));
}

#[test]
fn printed_settings_read_back_as_the_same_settings() {
    let env = [("PLATEAU_EXEMPT_ADDRESS", "127.0.0.9")];
    let args = [
        "--database",
        "postgres://plateau@/plateau?host=/run/postgresql",
        "--node",
        "web1",
        "--advertise",
        "10.0.0.11:8080",
        "--messages-per-second",
        "0.5",
        "--password-hashes",
        "2",
        "--metrics-listen",
        "127.0.0.1:9090",
        "--secure-cookies",
        "--forwarded-header",
        "forwarded",
    ];
    let first = printed(&args, &env);
    assert_eq!(first["node"].as_str(), Some("web1"));
    assert_eq!(first["messages_per_second"].as_float(), Some(0.5));
    assert_eq!(first["secure_cookies"].as_bool(), Some(true));
    let mut output = args.to_vec();
    output.push("--print-config");
    let text = String::from_utf8(serve(&output, &env).stdout).unwrap();
    let config = file("round.toml", &text);
    let again = printed(&["--config", config.to_str().unwrap()], &[]);
    assert_eq!(again, first);
    // A second round prints the same text.
    let back = serve(
        &["--config", config.to_str().unwrap(), "--print-config"],
        &[],
    );
    assert_eq!(String::from_utf8(back.stdout).unwrap(), text);
}

#[test]
fn a_password_is_printed_masked() {
    let settings = printed(
        &[
            "--database",
            "postgres://plateau:hunter2@10.0.0.5:5432/plateau",
        ],
        &[],
    );
    assert_eq!(
        settings["database"].as_str(),
        Some("postgres://plateau:********@10.0.0.5:5432/plateau")
    );
    let output = serve(
        &[
            "--database",
            "postgres://plateau:hunter2@10.0.0.5/plateau",
            "--print-config",
        ],
        &[],
    );
    assert!(!String::from_utf8_lossy(&output.stdout).contains("hunter2"));
    // Nor does --help show the variable's value.
    let help = serve(
        &["--help"],
        &[(
            "PLATEAU_DATABASE",
            "postgres://plateau:hunter2@10.0.0.5/plateau",
        )],
    );
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("[env: PLATEAU_DATABASE]"), "{help}");
    assert!(!help.contains("hunter2"));
}

/// The sample of docs/deploy.md, "Configuration", is a file `--config` takes.
#[test]
fn the_sample_in_deploy_md_is_read() {
    let doc = include_str!("../../../docs/deploy.md");
    let section = doc
        .split("\n## Configuration")
        .nth(1)
        .expect("deploy.md has a section Configuration");
    let sample = section
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the section has a TOML sample");
    let config = file("sample.toml", sample);
    let settings = printed(&["--config", config.to_str().unwrap()], &[]);
    let sample: toml::Table = toml::from_str(sample).unwrap();
    assert!(sample.len() >= 10, "the sample shows most settings");
    for (key, value) in &sample {
        assert_eq!(settings.get(key), Some(value), "{key}");
    }
}

/// The server listens where the file says, on the file's database.
#[test]
fn serve_runs_with_the_file_s_address_and_database() {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let db = dir.join(format!("config-{}.sqlite", std::process::id()));
    let config = file(
        "run.toml",
        &format!(
            "addr = \"{addr}\"\ndatabase = \"sqlite://{}\"\nscheduled_tournaments = false\n",
            db.display()
        ),
    );
    let mut child = Command::new(PLATEAU)
        .args(["serve", "--config", config.to_str().unwrap()])
        .env_remove("PLATEAU_ADDR")
        .env_remove("PLATEAU_DATABASE")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let lines = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    for line in lines.lines().map_while(Result::ok) {
        seen.push_str(&line);
        if line.contains("listening") {
            break;
        }
    }
    assert!(seen.contains(&addr.to_string()), "{seen}");
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(db.exists(), "the file's database was created");
}

/// A configuration file or deny list that is no small text file (a device that never ends, a
/// file of megabytes, a directory) is refused in words after reading at most its limit, so a
/// wrong path cannot fill the memory.
#[test]
fn a_file_too_large_or_endless_is_refused_without_reading_it_all() {
    let huge = file("huge.toml", &"# padding\n".repeat(200_000));
    let huge = huge.to_str().unwrap();
    let dir = env!("CARGO_TARGET_TMPDIR");
    let cases: [(&[&str], &[&str]); 5] = [
        (&["--config", huge], &[huge, "more than"]),
        (&["--config", "/dev/zero"], &["/dev/zero", "more than"]),
        (&["--config", dir], &[dir]),
        (&["--name-deny-list", huge], &[huge, "more than"]),
        (
            &["--name-deny-list", "/dev/zero"],
            &["/dev/zero", "more than"],
        ),
    ];
    for (args, words) in cases {
        let mut all = args.to_vec();
        // The deny list is read first as the server starts, before its database and address.
        all.extend([
            "--addr",
            "127.0.0.1:1",
            "--database",
            "sqlite:///nonexistent/x.db",
        ]);
        if args[0] == "--config" {
            all.push("--print-config");
        }
        let output = serve(&all, &[]);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {message}");
        assert!(!message.contains("panicked"), "{args:?}: {message}");
        for word in words {
            assert!(message.contains(word), "{args:?}: `{word}` in {message}");
        }
    }
}
