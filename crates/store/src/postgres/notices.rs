//! PostgreSQL's `NOTIFY` and `LISTEN` between the nodes of one database (`Store::notify`,
//! `Store::listen`).

use std::time::Duration;

use tokio_postgres::NoTls;

use super::PgStore;
use super::query::{exec, pool_error};
use crate::{BoxFuture, StoreError};

impl PgStore {
    /// Tells every node listening on `channel` `payload` (`Store::notify`).
    pub(super) fn notify_nodes(
        &self,
        channel: &'static str,
        payload: String,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let pool = self.pool.clone();
        Box::pin(async move {
            let client = pool.get().await.map_err(pool_error)?;
            exec(&client, "SELECT pg_notify($1, $2)", &[&channel, &payload]).await?;
            Ok(())
        })
    }

    /// What every node notifies on `channels` from now on (`Store::listen`).
    pub(super) fn listen_nodes(
        &self,
        channels: &[&'static str],
    ) -> Option<tokio::sync::mpsc::UnboundedReceiver<(String, String)>> {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let config = self.config.clone();
        let sql: String = channels.iter().map(|c| format!("LISTEN {c}; ")).collect();
        tokio::spawn(async move {
            while !tx.is_closed() {
                match config.connect(NoTls).await {
                    Ok((client, mut connection)) => {
                        let notices = tx.clone();
                        // The connection's messages: notifications among them.
                        let reader = tokio::spawn(async move {
                            let mut messages = futures_util::stream::poll_fn(move |cx| {
                                connection.poll_message(cx)
                            });
                            while let Some(Ok(message)) =
                                futures_util::StreamExt::next(&mut messages).await
                            {
                                if let tokio_postgres::AsyncMessage::Notification(n) = message {
                                    let notice = (n.channel().to_owned(), n.payload().to_owned());
                                    if notices.send(notice).is_err() {
                                        return;
                                    }
                                }
                            }
                        });
                        match client.batch_execute(&sql).await {
                            // Until the connection ends; `client` lives as long.
                            Ok(()) => {
                                let _ = reader.await;
                            }
                            Err(e) => {
                                tracing::warn!(error = %e, "LISTEN failed");
                                reader.abort();
                            }
                        }
                        drop(client);
                    }
                    Err(e) => tracing::debug!(error = %e, "no connection to LISTEN on"),
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
        Some(rx)
    }
}
