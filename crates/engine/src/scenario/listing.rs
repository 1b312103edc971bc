//! The scenario's async function as JavaScript, with the strategy's lock
//! calls in place: what the code pane shows. Each awaited line carries the
//! `Site` that trace events name, so a request's cursor can sit on it.

use crate::config::number::shortest;
use crate::config::{Config, ScenarioKind, StrategyKind, TxMode};
use crate::sim::Site;
use crate::strategy;

pub use crate::code::Listing;

impl Listing {
    pub fn of(config: &Config) -> Listing {
        let mut listing = Listing::default();
        match config.scenario {
            ScenarioKind::Stampede => listing.stampede(config),
            ScenarioKind::Ticket => listing.ticket(config),
        }
        strategy::listing(&mut listing, config);
        listing
    }

    fn stampede(&mut self, config: &Config) {
        let strategy = config.strategy;
        self.line("async function getItem(key) {");
        self.at(Site::Get, "  const cached = await cache.get(key);");
        self.line("  if (cached.live) return cached.value;");
        match strategy {
            StrategyKind::None => {
                self.pause(config, "  ");
                self.at(Site::Select, "  const row = await db.select(key);");
                self.at(Site::Set, "  await cache.set(key, row, TTL);");
                self.line("  return row;");
            }
            StrategyKind::SingleFlight => {
                self.at(
                    Site::Flight,
                    "  return await singleflight(key, () => load(key));",
                );
                self.load(config);
            }
            StrategyKind::StaleWhileRevalidate => {
                self.line("  if (cached.stale) {");
                self.line("    if (!refreshing.has(key)) singleflight(key, () => load(key)); // not awaited");
                self.line("    return cached.value;");
                self.line("  }");
                self.at(
                    Site::Flight,
                    "  return await singleflight(key, () => load(key));",
                );
                self.load(config);
            }
            StrategyKind::Xfetch => {
                self.line("  // cached.live: also recompute when");
                self.line(
                    "  //   now - cached.delta * BETA * Math.log(Math.random()) >= cached.expiry",
                );
                self.pause(config, "  ");
                self.line("  const start = Date.now();");
                self.at(Site::Select, "  const row = await db.select(key);");
                self.at(
                    Site::Set,
                    "  await cache.set(key, { row, delta: Date.now() - start }, TTL);",
                );
                self.line("  return row;");
            }
            _ => {
                self.acquire(strategy, "return giveUp(cached)");
                self.line("  try {");
                self.pause(config, "    ");
                if config.double_check {
                    self.at(Site::Recheck, "    const again = await cache.get(key);");
                    self.line("    if (again.live) return again.value;");
                }
                self.at(Site::Select, "    const row = await db.select(key);");
                self.at(Site::Set, "    await cache.set(key, row, TTL);");
                self.line("    return row;");
                self.release(strategy);
            }
        }
        self.line("}");
    }

    fn ticket(&mut self, config: &Config) {
        let strategy = config.strategy;
        let fenced = config.fencing && strategy.is_lock();
        let insert = match (config.await_insert, fenced) {
            (true, false) => "await db.insert(user, event);",
            (true, true) => "await db.insert(user, event, { fencingToken: token });",
            (false, false) => "db.insert(user, event); // not awaited: the original bug",
            (false, true) => {
                "db.insert(user, event, { fencingToken: token }); // not awaited: the original bug"
            }
        };
        let tx = config.tx;
        let body = |listing: &mut Listing, indent: &str| {
            if tx != TxMode::None {
                return listing.transaction_body(indent, tx);
            }
            listing.at(
                Site::FindOrder,
                &format!("{indent}const order = await db.findOrder(user, event);"),
            );
            listing.line(&format!("{indent}if (!order) {{"));
            listing.at(Site::Insert, &format!("{indent}  {insert}"));
            listing.line(&format!("{indent}}}"));
        };
        if config.db_unique {
            self.line("// orders has UNIQUE (user, event): a second insert throws");
        }
        self.line("async function participate(user, event) {");
        self.line("  const key = `${user}:${event}`;");
        match strategy {
            StrategyKind::None | StrategyKind::StaleWhileRevalidate | StrategyKind::Xfetch => {
                self.pause(config, "  ");
                body(self, "  ");
            }
            StrategyKind::SingleFlight => {
                self.at(
                    Site::Flight,
                    "  return await singleflight(key, async () => {",
                );
                self.pause(config, "    ");
                body(self, "    ");
                self.line("  });");
            }
            _ => {
                self.acquire(strategy, "throw new Error(\"busy\")");
                if fenced {
                    self.line(
                        "  const token = fencing.next(key); // one counter per key, every server",
                    );
                }
                self.line("  try {");
                self.pause(config, "    ");
                body(self, "    ");
                self.release(strategy);
            }
        }
        self.line("}");
    }

    /// The ticket body inside a transaction (`tx`), retried on 40001.
    fn transaction_body(&mut self, indent: &str, tx: TxMode) {
        let level = match tx {
            TxMode::Serializable => "SERIALIZABLE",
            _ => "READ COMMITTED",
        };
        self.line(&format!("{indent}for (let attempt = 0; ; attempt++) {{"));
        self.line(&format!(
            "{indent}  await db.query(\"BEGIN ISOLATION LEVEL {level}\"); // sent with the next statement"
        ));
        if tx == TxMode::ForUpdate {
            self.at(
                Site::LockRow,
                &format!(
                    "{indent}  await db.query(\"SELECT 1 FROM users WHERE id = $1 FOR UPDATE\", [user]);"
                ),
            );
        }
        self.at(
            Site::FindOrder,
            &format!("{indent}  const order = await db.findOrder(user, event);"),
        );
        self.at(
            Site::Insert,
            &format!("{indent}  if (!order) await db.insert(user, event);"),
        );
        self.at(
            Site::Commit,
            &format!("{indent}  try {{ await db.query(\"COMMIT\"); break; }}"),
        );
        self.line(&format!(
            "{indent}  catch (e) {{ if (e.code !== \"40001\" || attempt === TX_RETRIES) throw e; }}"
        ));
        self.line(&format!("{indent}}}"));
    }

    /// The lock's acquire line, and what a wait that gave up does.
    fn acquire(&mut self, strategy: StrategyKind, give_up: &str) {
        if strategy == StrategyKind::TicketLock {
            self.at(Site::Acquire, "  const ticket = await lock.acquire(key);");
            self.line(&format!("  if (ticket === null) {give_up};"));
        } else {
            self.at(
                Site::Acquire,
                &format!("  if (!(await lock.acquire(key))) {give_up};"),
            );
        }
    }

    /// The shared `load` of single-flight and stale-while-revalidate.
    fn load(&mut self, config: &Config) {
        self.line("}");
        self.line("async function load(key) {");
        self.pause(config, "  ");
        self.at(Site::Select, "  const row = await db.select(key);");
        self.at(Site::Set, "  await cache.set(key, row, TTL);");
        self.line("  return row;");
    }

    /// The injected faults, where the critical section starts.
    fn pause(&mut self, config: &Config, indent: &str) {
        if let Some(request) = config.crash {
            self.line(&format!(
                "{indent}if (REQUEST === {request}) process.abort(); // crash: never releases"
            ));
        }
        if let Some(pause) = config.pause {
            self.at(
                Site::Pause,
                &format!(
                    "{indent}if (REQUEST === {}) await sleep({}); // pause, in ms",
                    pause.request,
                    shortest(pause.duration as f64 / 1_000.0)
                ),
            );
        }
    }

    fn release(&mut self, strategy: StrategyKind) {
        self.line("  } finally {");
        if strategy == StrategyKind::KeyedMutex {
            self.line("    lock.release(key); // hands over to the next waiter");
        } else if strategy == StrategyKind::EmitterLock {
            self.line("    lock.release(key); // setImmediate(() => emitter.emit(key))");
        } else if strategy == StrategyKind::TicketLock {
            self.line("    lock.release(key, ticket);");
        } else {
            self.at(Site::Release, "    await lock.release(key);");
        }
        self.line("  }");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_site_a_run_records_has_a_line() {
        for scenario in [ScenarioKind::Stampede, ScenarioKind::Ticket] {
            for strategy in StrategyKind::ALL {
                let plain = Config {
                    strategy,
                    ..Config::new(scenario)
                };
                // Faults and the owner release add their own awaits.
                let faulty = Config {
                    release: crate::config::ReleaseMode::Owner,
                    lock_ttl: 5_000,
                    pause: Some(crate::config::Pause {
                        request: 0,
                        duration: 30_000,
                    }),
                    crash: Some(2),
                    clicks: 3,
                    cache: crate::config::CacheStart::Warm,
                    expire_at: Some(0),
                    grace: 1_000_000,
                    ..plain.clone()
                };
                // A transaction's FOR UPDATE and COMMIT are awaits too.
                let transaction = Config {
                    tx: TxMode::ForUpdate,
                    ..plain.clone()
                };
                for config in [plain, faulty, transaction] {
                    let listing = Listing::of(&config);
                    let mut sim = crate::Sim::new(&config);
                    sim.run();
                    for event in sim.trace().events() {
                        if event.site != Site::None {
                            assert!(
                                listing.line_of(event.site).is_some(),
                                "{scenario:?}/{strategy:?}: no line for {:?}",
                                event.site
                            );
                        }
                    }
                }
            }
        }
    }
}
