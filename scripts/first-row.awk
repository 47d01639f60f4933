# first-row.awk - the value of the column ENVIRON["column"] in the first
# row of scan's CSV (FS ","), as plain text; nothing when it has no such
# column.
NR == 1 { csv_header(); next }
{
	if (csv_has(ENVIRON["column"]))
		print plain(csv_field(ENVIRON["column"]))
	exit
}
