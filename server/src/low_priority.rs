//! The threads re-simulation runs on: a few of the process's own, each lowered
//! `NICE_INCREMENT` steps below the HTTP server's threads, so when both want the CPU the
//! requests go first and the queue drains in the gaps (a submission is acknowledged once it is
//! stored, so a verdict may wait; a board read may not). On an idle machine a nice thread runs
//! at full speed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// Steps of `nice` the verification threads run below the process (Linux: nice is per thread).
const NICE_INCREMENT: i32 = 10;

type Task = Box<dyn FnOnce() + Send>;

/// A fixed set of lowered threads taking closures in turn.
pub struct LowPriorityThreads {
    tasks: Mutex<Sender<Task>>,
}

impl LowPriorityThreads {
    /// Starts `count` threads (at least one).
    pub fn start(count: usize) -> LowPriorityThreads {
        let (tasks, queue) = channel::<Task>();
        let queue = Arc::new(Mutex::new(queue));
        for index in 0..count.max(1) {
            let queue = Arc::clone(&queue);
            std::thread::Builder::new()
                .name(format!("verifier-{index}"))
                .spawn(move || serve_tasks(&queue))
                .expect("the OS starts a thread");
        }
        LowPriorityThreads {
            tasks: Mutex::new(tasks),
        }
    }

    /// Runs `work` on one of the threads and waits for its result without blocking the async
    /// runtime; `Err` if `work` panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ()> {
        let (answer, result) = tokio::sync::oneshot::channel();
        let task: Task = Box::new(move || {
            let _ = answer.send(catch_unwind(AssertUnwindSafe(work)));
        });
        self.tasks
            .lock()
            .expect("not poisoned")
            .send(task)
            .expect("the threads live as long as the process");
        match result.await {
            Ok(Ok(value)) => Ok(value),
            _ => Err(()),
        }
    }
}

fn serve_tasks(queue: &Mutex<Receiver<Task>>) {
    lower_this_thread();
    loop {
        let task = queue.lock().expect("not poisoned").recv();
        match task {
            Ok(task) => task(),
            Err(_) => return,
        }
    }
}

#[cfg(target_os = "linux")]
fn lower_this_thread() {
    // SAFETY: nice(2) takes no pointers and changes only the calling thread's scheduling
    // priority (on Linux nice is per thread). Raising one's own nice value needs no privilege;
    // if it failed anyway, verification would run at normal priority, which is still correct.
    unsafe {
        libc::nice(NICE_INCREMENT);
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_this_thread() {}
