# human.awk - ENVIRON["bytes"] in binary units, to one decimal: "1.5 KiB".
BEGIN { print human(ENVIRON["bytes"], "%.1f") }
