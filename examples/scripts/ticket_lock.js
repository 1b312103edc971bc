// The polling ticket lock of seeds/002: take a numbered ticket, poll with
// `setInterval` every 100 ms until your number is served, and release only
// your own ticket. Waiting costs up to a poll interval per hand-off.
class LockService {
  constructor() {
    this.lockInfo = {};
  }

  createTicket(key, readyNumber) {
    return `${key}#${readyNumber}`;
  }

  decodeTicket(ticket) {
    const at = ticket.lastIndexOf("#");
    return { key: ticket.slice(0, at), readyNumber: Number(ticket.slice(at + 1)) };
  }

  async readyLock(key) {
    if (!this.lockInfo[key]) this.lockInfo[key] = { readyNumber: 0, nowNumber: 0 };
    const info = this.lockInfo[key];
    // This user's number, then the next one for whoever comes after.
    const thisReadyNumber = info.readyNumber;
    info.readyNumber += 1;
    const ticket = this.createTicket(key, thisReadyNumber);

    return new Promise((resolve, reject) => {
      const intervalId = setInterval(() => {
        count("polls");
        if (thisReadyNumber > info.nowNumber) {
          // not yet
        } else if (thisReadyNumber === info.nowNumber) {
          clearInterval(intervalId);
          resolve(ticket);
        } else {
          // our turn went by
          clearInterval(intervalId);
          reject(ticket);
        }
      }, 100);
    });
  }

  async releaseLock(ticket) {
    const { readyNumber, key } = this.decodeTicket(ticket);
    if (this.lockInfo[key].nowNumber === readyNumber) {
      this.lockInfo[key].nowNumber += 1;
    }
  }
}

const lockService = new LockService();
db.table("orders", { expectUnique: ["user", "event"] });

async function handle(req) {
  let ticket = "";
  try {
    ticket = await lockService.readyLock(`user:${req.user}`);
    const order = await db.findOne("orders", { user: req.user, event: 1 });
    if (!order) await db.insert("orders", { user: req.user, event: 1 });
  } finally {
    if (ticket) await lockService.releaseLock(ticket);
  }
}
