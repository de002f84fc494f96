//! The post-game analysis in the service (docs/protocol.md section 3.8): asked for, computed in
//! the background with its progress visible, stored with the match, the same as the library's
//! analysis of the match's record, and still there after a restart.

use plateau_bots::{AnalysisOptions, Budget};
use plateau_engine::Record;
use serde_json::{Value, json};

use crate::common::{TestApp, spawn_app, spawn_app_on};

/// Asks for the analysis of `id`, then follows it until it is done; returns every answer seen.
async fn follow(app: &TestApp, id: &str) -> Vec<Value> {
    let path = format!("/api/matches/{id}/analysis");
    let (status, first) = app.post(&path, &json!(null)).await;
    assert_eq!(status, 200, "{first}");
    let mut seen = vec![first];
    // The analysis runs on its own thread; it is followed as a page would, by asking again. A
    // second or two of work idle, it may take many more beside other tests on a loaded machine:
    // two minutes is only a bound for a stall.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while seen.last().unwrap()["status"] != "done" {
        assert!(
            std::time::Instant::now() < deadline,
            "the analysis of {id} was not done in 2 minutes: {:?}",
            seen.last()
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let (status, now) = app.get(&path).await;
        assert_eq!(status, 200, "{now}");
        seen.push(now);
    }
    seen
}

#[tokio::test]
async fn a_finished_match_is_analysed_in_the_background_and_stored() {
    let app = spawn_app().await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let created = app
        .create(json!({"game": "moonleap", "seats": [bot, bot, bot]}))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    app.wait_finished(&id).await;
    let path = format!("/api/matches/{id}/analysis");
    assert_eq!(app.get(&path).await, (200, json!({"status": "none"})));

    let seen = follow(&app, &id).await;
    // Every answer before the last is a wait or a count of decisions judged, never going back.
    let mut done = 0;
    for answer in &seen[..seen.len() - 1] {
        match answer["status"].as_str() {
            Some("queued") => assert!(answer["waiting"].as_u64().unwrap() >= 1),
            Some("running") => {
                let now = answer["done"].as_u64().unwrap();
                assert!(now >= done && now <= answer["total"].as_u64().unwrap());
                done = now;
            }
            other => panic!("unexpected answer {other:?}: {answer}"),
        }
    }
    let analysis = seen.last().unwrap()["analysis"].clone();

    // The same as the library's analysis of the match's record with the service's options.
    let (_, record) = app.get(&format!("/api/matches/{id}/record")).await;
    let record: Record = serde_json::from_value(record).unwrap();
    let options = AnalysisOptions {
        judge: Budget::Iterations(40),
        marks: plateau_registry::judge_marks(&record.game).unwrap(),
        ..AnalysisOptions::default()
    };
    let expected = plateau_registry::analyse(&record, &options, &mut |_, _| {}).unwrap();
    // Both read from JSON text the same way (the stored text is the library's serialization).
    let expected: Value = serde_json::from_str(&serde_json::to_string(&expected).unwrap()).unwrap();
    assert!(
        analysis == expected,
        "the service's analysis differs from the library's"
    );
    assert_eq!(
        analysis["plies"].as_array().unwrap().len(),
        record.actions().count()
    );
    assert_eq!(analysis["judge"], "i40");

    // Asking again reads the stored one; so does a restarted service.
    assert_eq!(app.post(&path, &json!(null)).await.1["analysis"], analysis);
    let db = app.db.clone();
    app.shutdown().await;
    let app = spawn_app_on(db).await;
    assert_eq!(
        app.get(&path).await.1,
        json!({"status": "done", "analysis": analysis})
    );
    app.shutdown().await;
}

#[tokio::test]
async fn only_a_finished_match_of_this_server_is_analysed() {
    let app = spawn_app().await;
    let created = app.create(crate::common::humans("mad")).await;
    let id = created["id"].as_str().unwrap();
    for (status, body) in [
        app.get(&format!("/api/matches/{id}/analysis")).await,
        app.post(&format!("/api/matches/{id}/analysis"), &json!(null))
            .await,
    ] {
        assert_eq!((status, &body["code"]), (409, &json!("match/not_over")));
    }
    let (status, body) = app
        .post("/api/matches/00000000000000ff/analysis", &json!(null))
        .await;
    assert_eq!((status, &body["code"]), (404, &json!("match/not_found")));
    app.shutdown().await;
}
