//! Writes docs/protocol.schema.json, the JSON Schema of what the server sends, from the types of
//! `plateau_protocol::server`: `cargo run -p plateau-protocol --example schema`.

fn main() -> std::io::Result<()> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/protocol.schema.json"
    );
    std::fs::write(path, plateau_protocol::schema::schema_text())?;
    println!("wrote docs/protocol.schema.json");
    Ok(())
}
