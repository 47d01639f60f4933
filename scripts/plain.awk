# plain.awk - ENVIRON["scan_text"] as one line of printable text (plain()
# in lib.awk), for the scripts' messages on stderr.
BEGIN { print plain(ENVIRON["scan_text"]) }
