//! The two engines the archive runs on, behind one small interface: a
//! club's SQLite file, and a series' PostgreSQL server. The archive's
//! statements are written once, in SQLite's words with `?N` parameters;
//! PostgreSQL gets them as `$N`, and its tables' types in its own words.

use std::borrow::Cow;
use std::cell::{RefCell, RefMut};

use crate::error::ArchiveError;

/// Which engine an archive runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

/// A value going into a statement or coming out of a row.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// The values of a statement's parameters, `?1` first.
macro_rules! args {
    ($($x:expr),* $(,)?) => {
        &[$($crate::night::club::archive::engine::Value::from($x)),*][..]
    };
}
pub(crate) use args;

macro_rules! value_from {
    ($($t:ty => $v:ident($e:ident) $conv:expr),* $(,)?) => {
        $(impl From<$t> for Value {
            fn from($e: $t) -> Self {
                Value::$v($conv)
            }
        })*
    };
}

value_from! {
    i64 => Int(v) v,
    i32 => Int(v) i64::from(v),
    u32 => Int(v) i64::from(v),
    bool => Int(v) i64::from(v),
    f64 => Real(v) v,
    String => Text(v) v,
    &str => Text(v) v.to_string(),
    &String => Text(v) v.clone(),
    Vec<u8> => Blob(v) v,
    &[u8] => Blob(v) v.to_vec(),
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::Null, Into::into)
    }
}

/// A row of a query's answer, its columns in the statement's order.
#[derive(Debug, Clone)]
pub struct Row(Vec<Value>);

impl Row {
    /// Column `i`, as the type asked for.
    pub fn get<T: FromValue>(&self, i: usize) -> Result<T, ArchiveError> {
        self.0
            .get(i)
            .and_then(T::from_value)
            .ok_or(ArchiveError::Column(i))
    }
}

/// A type a column's value is read as.
pub trait FromValue: Sized {
    fn from_value(v: &Value) -> Option<Self>;
}

impl FromValue for i64 {
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
}

impl FromValue for u32 {
    fn from_value(v: &Value) -> Option<Self> {
        i64::from_value(v).and_then(|i| u32::try_from(i).ok())
    }
}

impl FromValue for f64 {
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Real(r) => Some(*r),
            Value::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
}

impl FromValue for String {
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Text(t) => Some(t.clone()),
            _ => None,
        }
    }
}

impl FromValue for Vec<u8> {
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Blob(b) => Some(b.clone()),
            _ => None,
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Null => Some(None),
            other => T::from_value(other).map(Some),
        }
    }
}

/// What the archive asks of either engine: statements, answers, and the
/// engine's name for the few words the two spell differently.
pub trait Sql {
    fn engine(&self) -> Engine;
    /// Runs one statement; how many rows it changed.
    fn execute(&mut self, sql: &str, args: &[Value]) -> Result<u64, ArchiveError>;
    /// Every row of one statement's answer.
    fn query(&mut self, sql: &str, args: &[Value]) -> Result<Vec<Row>, ArchiveError>;
    /// Several statements without parameters (the schema's).
    fn batch(&mut self, sql: &str) -> Result<(), ArchiveError>;

    /// The first row of the answer, if there is one.
    fn row(&mut self, sql: &str, args: &[Value]) -> Result<Option<Row>, ArchiveError> {
        Ok(self.query(sql, args)?.into_iter().next())
    }

    /// The first column of the first row, where there is one.
    fn optional<T: FromValue>(
        &mut self,
        sql: &str,
        args: &[Value],
    ) -> Result<Option<T>, ArchiveError>
    where
        Self: Sized,
    {
        self.row(sql, args)?.map(|r| r.get(0)).transpose()
    }

    /// The first column of the first row, which must be there.
    fn value<T: FromValue>(&mut self, sql: &str, args: &[Value]) -> Result<T, ArchiveError>
    where
        Self: Sized,
    {
        self.optional(sql, args)?.ok_or(ArchiveError::Column(0))
    }
}

/// An open archive's connection.
pub enum Conn {
    Sqlite(rusqlite::Connection),
    /// PostgreSQL's client wants itself mutable even to read; the
    /// archive reads through `&self`, one statement at a time.
    Postgres(RefCell<postgres::Client>),
}

/// The lock every writing transaction on PostgreSQL takes first: writers
/// take turns, as SQLite's do, so a read-then-write never races another.
const WRITE_LOCK: i64 = 0x6175_6673_6963_6874;

/// What the program says when a write must wait for another's.
static WAITING: std::sync::OnceLock<Box<dyn Fn() + Send + Sync>> = std::sync::OnceLock::new();

/// Says `f` whenever a write waits for another's (a venue's push while
/// another pushes); the first one given holds.
pub fn when_waiting(f: impl Fn() + Send + Sync + 'static) {
    let _ = WAITING.set(Box::new(f));
}

impl Conn {
    pub fn engine(&self) -> Engine {
        match self {
            Conn::Sqlite(_) => Engine::Sqlite,
            Conn::Postgres(_) => Engine::Postgres,
        }
    }

    /// The connection for one statement or a few, outside a transaction.
    pub fn db(&self) -> Db<'_> {
        match self {
            Conn::Sqlite(c) => Either::Sqlite(c),
            Conn::Postgres(c) => Either::Postgres(c.borrow_mut()),
        }
    }

    /// A transaction that holds the archive's write lock from its start.
    pub fn write(&mut self) -> Result<Tx<'_>, ArchiveError> {
        Ok(match self {
            Conn::Sqlite(c) => Either::Sqlite(
                c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?,
            ),
            Conn::Postgres(c) => {
                let mut tx = c.get_mut().transaction()?;
                let row = tx.query_one("SELECT pg_try_advisory_xact_lock($1)", &[&WRITE_LOCK])?;
                if !row.get::<_, bool>(0) {
                    // Another venue writes: said once, then waited for
                    // (at most the session's lock_timeout).
                    if let Some(say_waiting) = WAITING.get() {
                        say_waiting();
                    }
                    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&WRITE_LOCK])?;
                }
                Either::Postgres(tx)
            }
        })
    }
}

/// A connection of either engine: `L` SQLite's (a connection or a
/// transaction on it), `P` PostgreSQL's.
pub enum Either<L, P> {
    Sqlite(L),
    Postgres(P),
}

/// The connection outside a transaction.
pub type Db<'a> = Either<&'a rusqlite::Connection, RefMut<'a, postgres::Client>>;

/// A writing transaction; dropped without [`Tx::commit`], it leaves
/// nothing.
pub type Tx<'a> = Either<rusqlite::Transaction<'a>, postgres::Transaction<'a>>;

impl Tx<'_> {
    pub fn commit(self) -> Result<(), ArchiveError> {
        match self {
            Either::Sqlite(tx) => tx.commit()?,
            Either::Postgres(tx) => tx.commit()?,
        }
        Ok(())
    }
}

/// PostgreSQL's side of a connection: the client, or a transaction.
pub trait Pg {
    fn client(&mut self) -> &mut impl postgres::GenericClient;
}

impl Pg for RefMut<'_, postgres::Client> {
    fn client(&mut self) -> &mut impl postgres::GenericClient {
        &mut **self
    }
}

impl Pg for postgres::Transaction<'_> {
    fn client(&mut self) -> &mut impl postgres::GenericClient {
        self
    }
}

impl<L: std::ops::Deref<Target = rusqlite::Connection>, P: Pg> Sql for Either<L, P> {
    fn engine(&self) -> Engine {
        match self {
            Either::Sqlite(_) => Engine::Sqlite,
            Either::Postgres(_) => Engine::Postgres,
        }
    }
    fn execute(&mut self, sql: &str, args: &[Value]) -> Result<u64, ArchiveError> {
        match self {
            Either::Sqlite(c) => sqlite::execute(c, sql, args),
            Either::Postgres(c) => pg::execute(c.client(), sql, args),
        }
    }
    fn query(&mut self, sql: &str, args: &[Value]) -> Result<Vec<Row>, ArchiveError> {
        match self {
            Either::Sqlite(c) => sqlite::query(c, sql, args),
            Either::Postgres(c) => pg::query(c.client(), sql, args),
        }
    }
    fn batch(&mut self, sql: &str) -> Result<(), ArchiveError> {
        match self {
            Either::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Either::Postgres(c) => {
                let sql = Engine::Postgres.ddl(sql);
                Ok(postgres::GenericClient::batch_execute(c.client(), &sql)?)
            }
        }
    }
}

impl Engine {
    /// A table's statement in this engine's words: SQLite's own as
    /// written; for PostgreSQL its ids drawn from an identity, its
    /// integers 64 bits, its text in byte order, its bytes `BYTEA`, its
    /// defaults its own.
    pub fn ddl<'a>(&self, sql: &'a str) -> Cow<'a, str> {
        match self {
            Engine::Sqlite => Cow::Borrowed(sql),
            Engine::Postgres => Cow::Owned(
                sql.replace(
                    "id INTEGER PRIMARY KEY,",
                    "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,",
                )
                .replace("INTEGER", "BIGINT")
                // Text compared and sorted byte by byte, as SQLite does.
                .replace(" TEXT", " TEXT COLLATE \"C\"")
                .replace("BLOB", "BYTEA")
                .replace(" REAL", " DOUBLE PRECISION")
                .replace(
                    "DEFAULT (datetime('now'))",
                    "DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))",
                ),
            ),
        }
    }

    /// The text at `path` (`a.b`) of the JSON in `column`, or NULL.
    pub fn json_text(&self, column: &str, path: &str) -> String {
        match self {
            // A damaged result is NULL here, not an error of the whole query.
            Engine::Sqlite => {
                format!(
                    "CASE WHEN json_valid({column}) THEN json_extract({column}, '$.{path}') END"
                )
            }
            Engine::Postgres => format!(
                "(aufsicht_jsonb({column}) #>> '{{{}}}')",
                path.replace('.', ",")
            ),
        }
    }

    /// The integer at `path` of the JSON in `column`, or NULL.
    pub fn json_int(&self, column: &str, path: &str) -> String {
        match self {
            Engine::Sqlite => self.json_text(column, path),
            Engine::Postgres => format!("CAST({} AS BIGINT)", self.json_text(column, path)),
        }
    }
}

mod sqlite {
    use rusqlite::types::{ToSqlOutput, ValueRef};

    use super::{Row, Value};
    use crate::error::ArchiveError;

    impl rusqlite::ToSql for Value {
        fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
            Ok(ToSqlOutput::Borrowed(match self {
                Value::Null => ValueRef::Null,
                Value::Int(i) => ValueRef::Integer(*i),
                Value::Real(r) => ValueRef::Real(*r),
                Value::Text(t) => ValueRef::Text(t.as_bytes()),
                Value::Blob(b) => ValueRef::Blob(b),
            }))
        }
    }

    pub fn execute(
        c: &rusqlite::Connection,
        sql: &str,
        args: &[Value],
    ) -> Result<u64, ArchiveError> {
        let mut stmt = c.prepare_cached(sql)?;
        Ok(stmt.execute(rusqlite::params_from_iter(args))? as u64)
    }

    pub fn query(
        c: &rusqlite::Connection,
        sql: &str,
        args: &[Value],
    ) -> Result<Vec<Row>, ArchiveError> {
        let mut stmt = c.prepare_cached(sql)?;
        let width = stmt.column_count();
        let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let mut values = Vec::with_capacity(width);
            for i in 0..width {
                values.push(match r.get_ref(i)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(i) => Value::Int(i),
                    ValueRef::Real(r) => Value::Real(r),
                    ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Blob(b) => Value::Blob(b.to_vec()),
                });
            }
            out.push(Row(values));
        }
        Ok(out)
    }
}

mod pg {
    use postgres::GenericClient;
    use postgres::types::{IsNull, ToSql, Type, to_sql_checked};

    use super::{Row, Value};
    use crate::error::ArchiveError;

    impl ToSql for Value {
        fn to_sql(
            &self,
            ty: &Type,
            out: &mut bytes::BytesMut,
        ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
            match self {
                Value::Null => Ok(IsNull::Yes),
                Value::Int(i) if *ty == Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Value::Int(i) if *ty == Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Value::Int(i) if *ty == Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Value::Int(i) if *ty == Type::TEXT => i.to_string().to_sql(ty, out),
                Value::Int(i) => i.to_sql(ty, out),
                Value::Real(r) => r.to_sql(ty, out),
                Value::Text(t) => t.to_sql(ty, out),
                Value::Blob(b) => b.to_sql(ty, out),
            }
        }

        fn accepts(_: &Type) -> bool {
            true
        }

        to_sql_checked!();
    }

    /// `?N` as PostgreSQL's `$N`, outside quoted text.
    pub fn dollars(sql: &str) -> String {
        let mut out = String::with_capacity(sql.len());
        let mut quoted = false;
        for c in sql.chars() {
            match c {
                '\'' => {
                    quoted = !quoted;
                    out.push(c);
                }
                '?' if !quoted => out.push('$'),
                _ => out.push(c),
            }
        }
        out
    }

    fn params(args: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
        args.iter().map(|a| a as &(dyn ToSql + Sync)).collect()
    }

    pub fn execute(
        c: &mut impl GenericClient,
        sql: &str,
        args: &[Value],
    ) -> Result<u64, ArchiveError> {
        Ok(c.execute(dollars(sql).as_str(), &params(args))?)
    }

    pub fn query(
        c: &mut impl GenericClient,
        sql: &str,
        args: &[Value],
    ) -> Result<Vec<Row>, ArchiveError> {
        let rows = c.query(dollars(sql).as_str(), &params(args))?;
        rows.iter().map(row).collect()
    }

    fn row(r: &postgres::Row) -> Result<Row, ArchiveError> {
        let mut values = Vec::with_capacity(r.len());
        for (i, column) in r.columns().iter().enumerate() {
            let ty = column.type_();
            let v = if *ty == Type::INT8 {
                r.try_get::<_, Option<i64>>(i)?.map(Value::Int)
            } else if *ty == Type::INT4 {
                r.try_get::<_, Option<i32>>(i)?
                    .map(|v| Value::Int(v.into()))
            } else if *ty == Type::INT2 {
                r.try_get::<_, Option<i16>>(i)?
                    .map(|v| Value::Int(v.into()))
            } else if *ty == Type::BOOL {
                r.try_get::<_, Option<bool>>(i)?
                    .map(|v| Value::Int(v.into()))
            } else if *ty == Type::FLOAT8 {
                r.try_get::<_, Option<f64>>(i)?.map(Value::Real)
            } else if *ty == Type::FLOAT4 {
                r.try_get::<_, Option<f32>>(i)?
                    .map(|v| Value::Real(v.into()))
            } else if *ty == Type::BYTEA {
                r.try_get::<_, Option<Vec<u8>>>(i)?.map(Value::Blob)
            } else {
                r.try_get::<_, Option<String>>(i)?.map(Value::Text)
            };
            values.push(v.unwrap_or(Value::Null));
        }
        Ok(Row(values))
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn parameters_should_be_numbered_with_dollars_but_not_inside_quotes() {
            assert_eq!(
                super::dollars("SELECT '?' , a FROM t WHERE b = ?1 AND c = ?12"),
                "SELECT '?' , a FROM t WHERE b = $1 AND c = $12"
            );
        }
    }
}
