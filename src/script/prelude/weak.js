// WeakRef and FinalizationRegistry: a part of the prelude (prelude.js) that
// a realm compiles and runs the first time its script reaches for one
// (prelude.js, `weakPart`). Its value is a function of what it takes from
// the prelude.
"use strict";
(function ({ standIns }) {
  // WeakRef and FinalizationRegistry as V8 has them in a run without a
  // garbage collection: a WeakRef's target stays reachable, and no
  // cleanup callback runs. QuickJS-ng counts references, so its own would
  // let go of a target the moment the script drops it (a WeakRef cache
  // that misses where Node's hits), and run cleanups at that moment.
  // V8's messages; the same rules for what can be held weakly.
  const canBeHeldWeakly = (value) =>
    (value !== null && (typeof value === "object" || typeof value === "function")) ||
    (typeof value === "symbol" && Symbol.keyFor(value) === undefined);
  const weakTargets = new WeakMap();
  function WeakRef(target) {
    if (new.target === undefined) throw new TypeError("Constructor WeakRef requires 'new'");
    if (!canBeHeldWeakly(target)) throw new TypeError("WeakRef: invalid target");
    weakTargets.set(this, target);
  }
  const registries = new WeakMap();
  function FinalizationRegistry(cleanup) {
    if (new.target === undefined) {
      throw new TypeError("Constructor FinalizationRegistry requires 'new'");
    }
    if (typeof cleanup !== "function") {
      throw new TypeError("FinalizationRegistry: cleanup must be callable");
    }
    registries.set(this, []);
  }
  const tokenOf = (token) => {
    if (!canBeHeldWeakly(token)) throw new TypeError(`Invalid unregisterToken ('${String(token)}')`);
    return token;
  };
  const nativeMethods = (target, methods) => {
    for (const method of Object.values(methods)) standIns.add(method);
    for (const [name, method] of Object.entries(methods)) {
      Object.defineProperty(target, name, { value: method, writable: true, configurable: true });
    }
  };
  nativeMethods(WeakRef.prototype, {
    deref() {
      return weakTargets.get(this);
    },
  });
  nativeMethods(FinalizationRegistry.prototype, {
    register(target, holdings, token) {
      if (!canBeHeldWeakly(target)) {
        throw new TypeError("FinalizationRegistry.prototype.register: invalid target");
      }
      if (target === holdings) {
        throw new TypeError(
          "FinalizationRegistry.prototype.register: target and holdings must not be same"
        );
      }
      if (token !== undefined) registries.get(this)?.push(tokenOf(token));
    },
    unregister(token) {
      tokenOf(token);
      const tokens = registries.get(this) ?? [];
      const kept = tokens.filter((each) => each !== token);
      registries.set(this, kept);
      return kept.length < tokens.length;
    },
  });
  for (const [made, tag] of [[WeakRef, "WeakRef"], [FinalizationRegistry, "FinalizationRegistry"]]) {
    Object.defineProperty(made.prototype, Symbol.toStringTag, { value: tag, configurable: true });
    standIns.add(made);
  }

  return { WeakRef, FinalizationRegistry };
});
