//! A tiny memcached text-protocol client over one tokio TCP connection:
//! `get`, `set`, `add` (with an expiry in whole seconds) and `delete`,
//! the four commands seed 004's locks and the stampede's cache use,
//! `incr` for fencing tokens, and `replace`, `touch`, `incr`/`decr` by any
//! amount, `append`/`prepend`, `gets` and `cas` for a script's memcached
//! clients (`real::script`).

use std::io;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

pub struct Memcached {
    stream: BufReader<TcpStream>,
}

impl Memcached {
    /// Connects to `host:port` (from a `memcache://host:port` URL).
    pub async fn connect(url: &str) -> io::Result<Memcached> {
        let address = url
            .trim_start_matches("memcache://")
            .trim_start_matches("memcached://")
            .trim_end_matches('/');
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        Ok(Memcached {
            stream: BufReader::new(stream),
        })
    }

    async fn line(&mut self) -> io::Result<String> {
        let mut line = String::new();
        if self.stream.read_line(&mut line).await? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "memcached closed the connection",
            ));
        }
        Ok(line.trim_end().to_string())
    }

    async fn send(&mut self, command: &str) -> io::Result<()> {
        self.stream.get_mut().write_all(command.as_bytes()).await
    }

    pub async fn get(&mut self, key: &str) -> io::Result<Option<String>> {
        Ok(self.read("get", key).await?.map(|(value, _)| value))
    }

    /// `gets`: the value and its CAS unique.
    pub async fn gets(&mut self, key: &str) -> io::Result<Option<(String, u64)>> {
        self.read("gets", key).await
    }

    /// `get` or `gets` of one key: its value, and its CAS unique (0 from
    /// `get`, which gives none).
    async fn read(&mut self, verb: &str, key: &str) -> io::Result<Option<(String, u64)>> {
        self.send(&format!("{verb} {key}\r\n")).await?;
        let header = self.line().await?;
        if header == "END" {
            return Ok(None);
        }
        let words: Vec<&str> = header.split(' ').collect();
        let bytes: usize = words
            .get(3)
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| unexpected(&header))?;
        let unique: u64 = words.get(4).and_then(|n| n.parse().ok()).unwrap_or(0);
        let mut value = vec![0; bytes + 2];
        self.stream.read_exact(&mut value).await?;
        value.truncate(bytes);
        let end = self.line().await?;
        if end != "END" {
            return Err(unexpected(&end));
        }
        Ok(Some((String::from_utf8_lossy(&value).into_owned(), unique)))
    }

    /// `cas`: stores only if the key's CAS unique is still `unique`; the
    /// reply (`STORED`, `EXISTS` or `NOT_FOUND`).
    pub async fn cas(
        &mut self,
        key: &str,
        value: &str,
        seconds: u64,
        unique: u64,
    ) -> io::Result<String> {
        let command = format!(
            "cas {key} 0 {seconds} {} {unique}\r\n{value}\r\n",
            value.len()
        );
        self.send(&command).await?;
        match self.line().await? {
            reply if ["STORED", "EXISTS", "NOT_FOUND"].contains(&reply.as_str()) => Ok(reply),
            other => Err(unexpected(&other)),
        }
    }

    /// `set`: always stores.
    pub async fn set(&mut self, key: &str, value: &str, seconds: u64) -> io::Result<()> {
        self.store("set", key, value, seconds).await.map(|_| ())
    }

    /// A store command (`set`, `add`, `replace`, `append`, `prepend`) with
    /// an expiry in whole seconds (`append` and `prepend` ignore it); true
    /// if stored.
    pub async fn store(
        &mut self,
        verb: &str,
        key: &str,
        value: &str,
        seconds: u64,
    ) -> io::Result<bool> {
        let command = format!("{verb} {key} 0 {seconds} {}\r\n{value}\r\n", value.len());
        self.send(&command).await?;
        match self.line().await?.as_str() {
            "STORED" => Ok(true),
            "NOT_STORED" => Ok(false),
            other => Err(unexpected(other)),
        }
    }

    /// `incr key 1`, creating the key at 0 first if absent (`add`): the
    /// new value. A fencing token's counter.
    pub async fn incr(&mut self, key: &str) -> io::Result<u64> {
        for _ in 0..2 {
            self.send(&format!("incr {key} 1\r\n")).await?;
            let reply = self.line().await?;
            if reply == "NOT_FOUND" {
                self.store("add", key, "0", 0).await?;
                continue;
            }
            return reply.parse().map_err(|_| unexpected(&reply));
        }
        Err(unexpected("NOT_FOUND"))
    }

    /// `touch`: a new expiry for a present key; true if it was present.
    pub async fn touch(&mut self, key: &str, seconds: u64) -> io::Result<bool> {
        self.send(&format!("touch {key} {seconds}\r\n")).await?;
        match self.line().await?.as_str() {
            "TOUCHED" => Ok(true),
            "NOT_FOUND" => Ok(false),
            other => Err(unexpected(other)),
        }
    }

    /// `incr` (or `decr` when `by` is negative) by `|by|`: the new value,
    /// `Ok(None)` for a missing key, and `Err` with memcached's message
    /// for a value that is not a number.
    pub async fn count(&mut self, key: &str, by: i64) -> io::Result<Result<Option<u64>, String>> {
        let verb = if by < 0 { "decr" } else { "incr" };
        self.send(&format!("{verb} {key} {}\r\n", by.unsigned_abs()))
            .await?;
        let reply = self.line().await?;
        if reply == "NOT_FOUND" {
            return Ok(Ok(None));
        }
        if let Some(message) = reply.strip_prefix("CLIENT_ERROR ") {
            return Ok(Err(message.to_string()));
        }
        reply
            .parse()
            .map(|n| Ok(Some(n)))
            .map_err(|_| unexpected(&reply))
    }

    /// True if it deleted something.
    pub async fn delete(&mut self, key: &str) -> io::Result<bool> {
        self.send(&format!("delete {key}\r\n")).await?;
        match self.line().await?.as_str() {
            "DELETED" => Ok(true),
            "NOT_FOUND" => Ok(false),
            other => Err(unexpected(other)),
        }
    }
}

fn unexpected(reply: &str) -> io::Error {
    io::Error::other(format!("unexpected memcached reply `{reply}`"))
}
