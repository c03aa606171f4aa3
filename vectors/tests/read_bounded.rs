//! The workspace's one bounded reader: the limit and the pipe policy are the
//! caller's, and what is refused is refused before anything is read.

use std::fs;
use std::path::PathBuf;

use wow_guid_vectors::{read_bounded, FileError, Pipes};

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("read-bounded-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_regular_file_is_read_up_to_the_callers_limit() {
    let path = scratch("limit").join("ten.txt");
    fs::write(&path, b"0123456789").unwrap();
    assert_eq!(
        read_bounded(&path, 10, Pipes::Refuse).unwrap(),
        b"0123456789"
    );
    match read_bounded(&path, 9, Pipes::Allow) {
        Err(FileError::TooLarge { size: 10, limit: 9 }) => {}
        other => panic!("{other:?}"),
    }
    let err = read_bounded(&path, 9, Pipes::Refuse).unwrap_err();
    assert_eq!(err.to_string(), "10 bytes, more than the limit of 9");
    assert_eq!(
        std::io::Error::from(err).kind(),
        std::io::ErrorKind::FileTooLarge
    );
}

#[test]
fn devices_and_directories_are_refused_whatever_the_pipe_policy() {
    let dir = scratch("kinds");
    for pipes in [Pipes::Refuse, Pipes::Allow] {
        match read_bounded(&dir, 1 << 30, pipes) {
            Err(FileError::NotRegular("a directory")) => {}
            other => panic!("{other:?}"),
        }
        #[cfg(unix)]
        match read_bounded("/dev/zero".as_ref(), 1 << 30, pipes) {
            Err(FileError::NotRegular("a character device")) => {}
            other => panic!("{other:?}"),
        }
    }
    match read_bounded(&dir.join("missing"), 1, Pipes::Refuse) {
        Err(FileError::Io(e)) => assert_eq!(e.kind(), std::io::ErrorKind::NotFound),
        other => panic!("{other:?}"),
    }
}

/// A FIFO is refused at once without waiting for a writer where pipes are
/// refused, and read to its end, within the limit, where they are allowed.
#[cfg(unix)]
#[test]
fn a_fifo_is_read_only_where_pipes_are_allowed() {
    use std::io::Write as _;
    use std::process::Command;

    let fifo = scratch("fifo").join("ids.fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    match read_bounded(&fifo, 100, Pipes::Refuse) {
        Err(FileError::NotRegular("a FIFO (named pipe)")) => {}
        other => panic!("{other:?}"),
    }
    for (text, limit, fits) in [("a\nb\n", 100, true), ("0123456789", 4, false)] {
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut w = fs::OpenOptions::new().write(true).open(fifo).unwrap();
                // The reader may stop early at its limit and close its end.
                let _ = w.write_all(text.as_bytes());
            })
        };
        let read = read_bounded(&fifo, limit, Pipes::Allow);
        writer.join().unwrap();
        match read {
            Ok(bytes) if fits => assert_eq!(bytes, text.as_bytes()),
            Err(FileError::TooLarge { size: 5, limit: 4 }) if !fits => {}
            other => panic!("{other:?}"),
        }
    }
}
