//! "My levels" as a screen: the author's own levels, each played or edited as the only level.

use super::publish::PublishScreen;
use super::{Ctx, Screen, Transition};
use crate::app::editor_screen::{MyLevelsOutcome, MyLevelsScreen};
use crate::app::level_shelf::linked_title;
use crate::app::menus::TitleItem;
use crate::app::{log_line, web};
use crate::sim::level::LevelDef;

/// Whether this build moves level files in and out through the page (browser downloads and its
/// file picker); the desktop's levels are files already.
const FILES_THROUGH_PAGE: bool = cfg!(target_arch = "wasm32");

pub struct MyLevelsPlace {
    list: MyLevelsScreen,
}

impl MyLevelsPlace {
    /// The list, the cursor on `name` if given.
    pub fn open(ctx: &Ctx, name: Option<&str>) -> MyLevelsPlace {
        let list = MyLevelsScreen::open(&ctx.shelf, FILES_THROUGH_PAGE, name);
        log_line(&format!(
            "my levels: {} kept in {}: {}",
            list.entries().len(),
            ctx.shelf.place_of("*"),
            list.entries()
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        MyLevelsPlace { list }
    }

    /// Logs `message`, shows it, and refreshes the list with the cursor on `at`.
    fn say(&mut self, ctx: &Ctx, message: String, at: Option<&str>) {
        log_line(&format!("my levels: {message}"));
        self.list.refresh_at(&ctx.shelf, at);
        self.list.set_message(message);
    }

    /// What the list's choice asks for.
    fn act(&mut self, ctx: &mut Ctx, outcome: MyLevelsOutcome) -> Transition {
        let edit = matches!(outcome, MyLevelsOutcome::Edit(_));
        match outcome {
            MyLevelsOutcome::Stay => Transition::Stay,
            MyLevelsOutcome::Back => {
                ctx.restore_campaign();
                Transition::to_title(TitleItem::MyLevels)
            }
            MyLevelsOutcome::New => {
                let text = crate::editor::new_level_text();
                let name = ctx.shelf.free_name_for(&linked_title(&text));
                let play = ctx.start_shelf_level(name, text);
                Transition::reset(ctx.edit_shelf_level(play))
            }
            MyLevelsOutcome::Import => {
                web::start_import();
                self.say(ctx, "choose a level file (.ron)".into(), None);
                Transition::Stay
            }
            MyLevelsOutcome::Edit(name) | MyLevelsOutcome::Play(name) => {
                match ctx.shelf.load(&name) {
                    Ok(text) => {
                        let play = ctx.start_shelf_level(name, text);
                        Transition::reset(if edit {
                            ctx.edit_shelf_level(play)
                        } else {
                            play
                        })
                    }
                    Err(problem) => {
                        self.say(ctx, problem.to_string(), Some(&name));
                        Transition::Stay
                    }
                }
            }
            MyLevelsOutcome::Export(name) => {
                let message = match ctx.shelf.load(&name) {
                    Ok(text) => {
                        web::export_file(&format!("{name}.ron"), &text);
                        format!("exported {name}.ron (see the browser's downloads)")
                    }
                    Err(problem) => problem.to_string(),
                };
                self.say(ctx, message, Some(&name));
                Transition::Stay
            }
            MyLevelsOutcome::Publish(_) if !crate::online::BUILT => Transition::Stay,
            MyLevelsOutcome::Publish(name) => match PublishScreen::start(ctx, &name) {
                Ok(publish) => Transition::Push(Box::new(publish)),
                Err(missing) => {
                    self.say(ctx, missing, Some(&name));
                    Transition::Stay
                }
            },
            MyLevelsOutcome::Delete(name) => {
                let message = match ctx.shelf.remove(&name) {
                    Ok(()) => {
                        // Its finishing run goes with it (a new level of that name is unproven).
                        if let Err(problem) = ctx.proofs.remove(&name) {
                            log_line(&format!("my levels: {problem}"));
                        }
                        format!("deleted {name}")
                    }
                    Err(problem) => problem.to_string(),
                };
                self.say(ctx, message, None);
                Transition::Stay
            }
        }
    }
}

/// Keeps a level file the page's picker read: it must parse (the editor opens levels with
/// problems, so those are kept and named); returns what to say and the name it was kept as.
fn import_level(
    ctx: &mut Ctx,
    imported: Result<web::PickedFile, web::PageRefusal>,
) -> (String, Option<String>) {
    let web::PickedFile { name: file, text } = match imported {
        Ok(picked) => picked,
        Err(problem) => return (format!("not imported: {problem}"), None),
    };
    let file = crate::sim::limits::printable(&file);
    // Read without the checks, as the editor reads: a level with problems opens there.
    let level = match crate::sim::RonError::parse::<LevelDef>(&text, &file) {
        Ok(level) => level,
        Err(problem) => return (format!("not imported: {problem}"), None),
    };
    let name = ctx.shelf.free_name_for(&level.name);
    if let Err(problem) = ctx.shelf.save(&name, &text) {
        return (format!("not imported: {problem}"), None);
    }
    let checked =
        crate::sim::World::from_level(level, std::sync::Arc::clone(&ctx.data.tuning), &file);
    let said = match checked {
        Ok(_) => format!("imported {file} as {name}"),
        Err(err) => format!(
            "imported {file} as {name}; it has problems to fix in the editor: {}",
            err.to_string().lines().next().unwrap_or_default()
        ),
    };
    (said, Some(name))
}

impl Screen for MyLevelsPlace {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        if let Some(imported) = web::poll_import() {
            let (message, at) = import_level(ctx, imported);
            self.say(ctx, message, at.as_deref());
            return Transition::Stay;
        }
        let outcome = self.list.update(&ctx.input.actions);
        self.act(ctx, outcome)
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        self.list.draw(&ctx.shelf.place_of("*"));
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some("my levels".into())
    }
}
