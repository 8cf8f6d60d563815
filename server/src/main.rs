//! `tether-server`: Tether Online. Boards nobody can fake (every run is re-simulated) and shared
//! levels, over a JSON API (docs/online.md), serving the browser game from the same origin.
//!
//!   tether-server                 serve on 127.0.0.1:$TETHER_PORT (default 8787)
//!   tether-server worker          verify queued runs only (no HTTP), beside other processes
//!   tether-server reverify        re-simulate every verified run; list those that no longer finish
//!   tether-server bench-verify [REPLAY] [SECONDS]   re-simulations per second on one core
//!   tether-server integrity       the database's own consistency check (SQLite)
//!   tether-server seed [PLAYERS] [LEVELS] [RUNS]   made-up data to measure load on (never live)
//!
//! Settings come from the environment: see `config.rs`.

mod api;
mod auth;
mod board_cache;
mod campaign;
mod config;
mod db;
mod error;
mod low_priority;
mod queue;
mod ratelimit;
mod read_timing;
mod schema;
mod seed;
mod tools;
mod verify;
mod writes;

use std::net::SocketAddr;
use std::sync::Arc;

use config::Config;
use queue::Verifier;
use verify::LevelBook;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime starts");
    let result = runtime.block_on(run(args));
    if let Err(err) = result {
        eprintln!("tether-server: {err}");
        std::process::exit(1);
    }
}

async fn run(args: Vec<String>) -> Result<(), String> {
    let command = args.first().map(String::as_str).unwrap_or("serve");
    if command == "bench-verify" {
        return tools::bench_verify(&args[1..]);
    }
    let config = Config::from_env()?;
    let db = db::connect(&config).await?;
    let book = Arc::new(LevelBook::new());
    match command {
        "serve" => serve(config, db, book).await,
        "worker" => {
            let boards = Arc::new(config.board_cache());
            let verifier = Verifier::new(db, book, config.verifiers, config.claim_lease_ms, boards);
            println!(
                "worker: verifying queued runs with {} threads",
                config.verifiers.max(1)
            );
            Arc::new(verifier).run_forever().await;
            Ok(())
        }
        "reverify" => tools::reverify(&db, book).await,
        "integrity" => tools::integrity(&db, &config).await,
        "seed" => seed::seed(&db, &config, &args[1..]).await,
        other => Err(format!(
            "unknown command {other:?}: serve, worker, reverify, bench-verify, integrity or seed"
        )),
    }
}

async fn serve(config: Config, db: db::Db, book: Arc<LevelBook>) -> Result<(), String> {
    let levels = campaign::load(&db, &book, &config.levels_dir).await?;
    let verifier = Arc::new(Verifier::new(
        db.clone(),
        book,
        config.verifiers,
        config.claim_lease_ms,
        Arc::new(config.board_cache()),
    ));
    if config.verifiers > 0 {
        tokio::spawn(Arc::clone(&verifier).run_forever());
    }
    // Loopback only: a host puts a reverse proxy (TLS, its own limits) in front.
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", config.port))
        .await
        .map_err(|err| format!("cannot listen on 127.0.0.1:{}: {err}", config.port))?;
    let addr = listener.local_addr().map_err(|err| err.to_string())?;
    let reads = db::connect_reads(&config).await?;
    let app = Arc::new(api::App::new(db, reads, config, verifier));
    read_timing::start_if_asked();
    // Tests and scripts read this line for the port (TETHER_PORT=0 picks a free one).
    println!("tether-server: {levels} campaign levels; listening on http://{addr}");
    let service = api::router(app).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, service)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|err| err.to_string())
}
