# plain-lines.awk - each line as printable text (plain() in lib.awk): what
# a script passes on from scan or a file to a terminal.
{ print plain($0) }
