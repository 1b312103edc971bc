//! The ticket and stampede bodies on real servers, step for step as
//! `scenario::ticket` and `scenario::stampede` (their doc comments show
//! the code), including the transactions of `docs/transactions.md` and the
//! `crash` and `pause` faults.

use crate::config::{StrategyKind, TxMode};
use crate::real::cache::{CacheError, DataEntry, Found};
use crate::real::db::DbFailure;
use crate::real::locks::{self, finish_flight, join_flight};
use crate::real::request::{Ended, Request};

/// The fault the fragment injects into this request, on entering its
/// critical section: true if it crashes (never releasing its lock).
async fn faults(request: &Request) -> bool {
    let config = &request.world.config;
    if config.crash == Some(request.index) {
        return true;
    }
    if let Some(pause) = config.pause {
        if pause.request == request.index && pause.duration > 0 {
            request.sleep(pause.duration).await;
        }
    }
    false
}

pub async fn participate(request: &mut Request, user: u32) -> Result<Ended, CacheError> {
    let world = request.world.clone();
    if world.config.strategy == StrategyKind::SingleFlight {
        if let Some(shared) = join_flight(request, user).await {
            return Ok(match shared {
                Some(1) => Ended::Ok,
                Some(_) => Ended::Failed,
                None => Ended::Crashed,
            });
        }
        world.enter(user);
        if faults(request).await {
            world.exit(user);
            return Ok(Ended::Crashed);
        }
        let placed = place_order(request, user).await;
        world.exit(user);
        finish_flight(request, user, Some(u64::from(placed)));
        return Ok(if placed { Ended::Ok } else { Ended::Failed });
    }
    if !locks::acquire(request, user).await? {
        return Ok(Ended::Failed);
    }
    world.enter(user);
    if world.config.fencing && world.config.strategy.is_lock() {
        request.take_fence(user).await?;
    }
    if faults(request).await {
        world.exit(user);
        // Never releases: a keyed mutex stays locked for good.
        std::mem::forget(request.guard.take());
        return Ok(Ended::Crashed);
    }
    let placed = place_order(request, user).await;
    world.exit(user);
    locks::release(request, user).await?;
    Ok(if placed { Ended::Ok } else { Ended::Failed })
}

/// False if the DB refused the awaited insert or the transaction failed.
async fn place_order(request: &mut Request, user: u32) -> bool {
    let config = &request.world.config;
    if config.tx != TxMode::None {
        return place_order_in_transaction(request, user).await;
    }
    match request.find_order(user).await {
        Ok(true) => true,
        Ok(false) if config.await_insert => request.insert_order(user).await.is_ok(),
        Ok(false) => {
            request.insert_order_unawaited(user);
            true
        }
        Err(_) => false,
    }
}

/// BEGIN; (FOR UPDATE;) find; insert if none; COMMIT; retried from BEGIN
/// after a serialization failure up to `tx_retries` times.
async fn place_order_in_transaction(request: &mut Request, user: u32) -> bool {
    let config = request.world.config.clone();
    for _ in 0..=config.tx_retries {
        request.check_out_connection().await;
        let attempt = transaction_attempt(request, user, config.tx).await;
        if attempt.is_err() {
            request.rollback().await;
        }
        request.connection = None;
        match attempt {
            Ok(()) => return true,
            Err(DbFailure::Serialization) => {}
            Err(_) => return false,
        }
    }
    false
}

async fn transaction_attempt(request: &Request, user: u32, tx: TxMode) -> Result<(), DbFailure> {
    request.begin(tx == TxMode::Serializable).await?;
    if tx == TxMode::ForUpdate {
        request.lock_user(user).await?;
    }
    if !request.find_order(user).await? {
        request.insert_order(user).await?;
    }
    request.commit().await
}

pub async fn get_item(request: &mut Request, item: u32) -> Result<Ended, CacheError> {
    let world = request.world.clone();
    let strategy = world.config.strategy;
    let cached = request.cache_get_data(item).await?;
    if let Found::Live(entry) = &cached {
        if strategy == StrategyKind::Xfetch && refresh_early(request, entry) {
            return recompute(request, item).await;
        }
        return Ok(Ended::Ok);
    }
    match strategy {
        StrategyKind::SingleFlight => return flight(request, item).await,
        StrategyKind::StaleWhileRevalidate => {
            if let Found::Stale(_) = cached {
                // Answer with the stale value now; refresh in the
                // background unless this server already does.
                request.respond(Ended::Stale);
                let running = world.servers[request.server as usize]
                    .flights
                    .borrow()
                    .contains_key(&item);
                if !running {
                    flight(request, item).await?;
                }
                return Ok(Ended::Stale);
            }
            return flight(request, item).await;
        }
        StrategyKind::Xfetch => return recompute(request, item).await,
        _ => {}
    }
    if !locks::acquire(request, item).await? {
        // A waiter that gave up serves the stale value its first read got.
        return Ok(match cached {
            Found::Stale(_) => Ended::Stale,
            _ => Ended::Failed,
        });
    }
    world.enter(item);
    if faults(request).await {
        world.exit(item);
        std::mem::forget(request.guard.take());
        return Ok(Ended::Crashed);
    }
    let double_check = world.config.double_check && strategy.is_lock();
    let loads = !double_check || !matches!(request.cache_get_data(item).await?, Found::Live(_));
    let ended = if loads && load(request, item).await.is_err() {
        Ended::Failed
    } else {
        Ended::Ok
    };
    world.exit(item);
    locks::release(request, item).await?;
    Ok(ended)
}

/// `singleflight(key, () => load(key))` on this request's server: join the
/// running call, or lead one.
async fn flight(request: &mut Request, item: u32) -> Result<Ended, CacheError> {
    let world = request.world.clone();
    if let Some(shared) = join_flight(request, item).await {
        return Ok(if shared.is_some() {
            Ended::Ok
        } else {
            Ended::Crashed
        });
    }
    world.enter(item);
    if faults(request).await {
        world.exit(item);
        return Ok(Ended::Crashed);
    }
    let loaded = load(request, item).await;
    world.exit(item);
    finish_flight(request, item, loaded.as_ref().ok().copied());
    Ok(if loaded.is_ok() {
        Ended::Ok
    } else {
        Ended::Failed
    })
}

/// XFetch after a live read: recompute early if
/// `now - delta * beta * ln(rand()) >= expiry` (one draw of the trial's
/// XFetch stream); never for an entry with no expiry.
fn refresh_early(request: &Request, entry: &DataEntry) -> bool {
    let Some(expiry) = entry.live_until else {
        return false;
    };
    let world = &request.world;
    let draw = world.delays.borrow_mut().xfetch_draw();
    let gap = -(entry.delta as f64) * world.config.beta * libm::log(draw);
    let early = request.now() as f64 + gap >= expiry as f64;
    if early {
        world.count(|t| t.early_refreshes += 1);
    }
    early
}

/// XFetch's recomputation: no lock; select, timing it, then set with the
/// time it took (the next reader's `delta`).
async fn recompute(request: &mut Request, item: u32) -> Result<Ended, CacheError> {
    let world = request.world.clone();
    world.enter(item);
    if faults(request).await {
        world.exit(item);
        return Ok(Ended::Crashed);
    }
    let ended = match load(request, item).await {
        Ok(_) => Ended::Ok,
        Err(ended) => ended,
    };
    world.exit(item);
    Ok(ended)
}

/// `select` then `set`, remembering how long the select took.
async fn load(request: &mut Request, item: u32) -> Result<u64, Ended> {
    let start = request.now();
    let row = request
        .select_product(item)
        .await
        .map_err(|_| Ended::Failed)?;
    let delta = request.now() - start;
    request
        .cache_set_data(item, &row.to_string(), delta)
        .await?;
    Ok(row as u64)
}
