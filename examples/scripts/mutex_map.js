// The free-ticket fix of seeds/000: a `Map` of one FIFO async mutex per
// user (as async-mutex's `Mutex`), built here on `new Promise`. Release
// hands the lock to the oldest waiter. It fixes double clicks on one
// server; with `servers=2` each server has its own Map and the race is back.
class Mutex {
  constructor() {
    this.locked = false;
    this.waiters = [];
  }

  acquire() {
    return new Promise((resolve) => {
      const release = () => {
        const next = this.waiters.shift();
        if (next) {
          count("handoffs");
          next(release);
        } else {
          this.locked = false;
        }
      };
      if (!this.locked) {
        this.locked = true;
        resolve(release);
      } else {
        this.waiters.push(resolve);
      }
    });
  }
}

class PaymentService {
  constructor() {
    this.locks = new Map();
  }

  async participateInFreeEvent(user, eventId) {
    if (!this.locks.has(user.id)) {
      this.locks.set(user.id, new Mutex());
    }
    await this.locks
      .get(user.id)
      .acquire()
      .then(async (release) => {
        try {
          const existOrder = await db.findOne("orders", { user: user.id, event: eventId });
          if (!existOrder) {
            const insert = db.insert("orders", { user: user.id, event: eventId });
            // The article forgot this await (await_insert=false).
            if (config.await_insert) await insert;
          }
        } finally {
          release();
        }
      });
  }
}

const paymentService = new PaymentService();
db.table("orders", { expectUnique: ["user", "event"] });

async function handle(req) {
  await paymentService.participateInFreeEvent({ id: req.user }, 1);
}
