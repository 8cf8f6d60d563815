//! The campaign's levels, read from the levels folder at start and stored like shared levels
//! (addressed by the hash of their text), with the author times `levels/index.ron` gives.

use std::path::Path;

use tether_online_proto::level_hash;
use tether_sim::{limits, LevelDef, LevelIndex};

use crate::db::{now_ms, Db};
use crate::verify::LevelBook;

/// Stores every campaign level not stored yet; returns how many the index lists.
pub async fn load(db: &Db, book: &LevelBook, levels_dir: &Path) -> Result<usize, String> {
    let index_path = levels_dir.join("index.ron");
    let index_text = read_bounded(&index_path, limits::MAX_LEVEL_INDEX_FILE_BYTES)?;
    let index = LevelIndex::from_ron(&index_text, &index_path.display().to_string())
        .map_err(|err| err.to_string())?;
    for (_, entry) in index.levels() {
        let path = levels_dir.join(&entry.file);
        let text = read_bounded(&path, limits::MAX_LEVEL_FILE_BYTES)?;
        let file = path.display().to_string();
        book.build(&text, &file)?;
        let name = LevelDef::from_ron(&text, &file)
            .map_err(|err| err.to_string())?
            .name;
        let Some(author_ticks) = entry.author_ticks else {
            return Err(format!("{file}: the index gives it no author_ticks"));
        };
        sqlx::query(
            "INSERT INTO levels (hash, name, name_folded, author_key, text, author_ticks, \
             campaign, created_ms) VALUES ($1, $2, $3, NULL, $4, $5, 1, $6) ON CONFLICT DO NOTHING",
        )
        .bind(level_hash(&text))
        .bind(&name)
        .bind(name.to_lowercase())
        .bind(&text)
        .bind(author_ticks as i64)
        .bind(now_ms())
        .execute(db)
        .await
        .map_err(|err| format!("storing {file}: {err}"))?;
    }
    Ok(index.level_count())
}

fn read_bounded(path: &Path, max_bytes: u64) -> Result<String, String> {
    let size = std::fs::metadata(path)
        .map_err(|err| format!("{}: {err}", path.display()))?
        .len();
    if size > max_bytes {
        return Err(format!(
            "{}: {size} bytes, at most {max_bytes}",
            path.display()
        ));
    }
    std::fs::read_to_string(path).map_err(|err| format!("{}: {err}", path.display()))
}
