# Reads the few things the compose stub needs from a compose file (a STUB, not a YAML parser):
# the top-level `name:`, and each service under `services:` with its `image:`, as lines
#   name<TAB>PROJECT
#   service<TAB>NAME<TAB>IMAGE
# Indentation decides the level, as in the files agents write (two spaces per level).
/^[^[:space:]#]/ { section = $1; sub(/:.*/, "", section) }
/^name:/ { v = $0; sub(/^name:[[:space:]]*/, "", v); gsub(/["']/, "", v); print "name\t" v }
section == "services" && /^  [A-Za-z0-9_.-]+:[[:space:]]*$/ { if (svc != "") print "service\t" svc "\t" image; svc = $1; sub(/:$/, "", svc); image = "" }
section == "services" && /^    image:/ { v = $0; sub(/^    image:[[:space:]]*/, "", v); gsub(/["']/, "", v); image = v }
END { if (svc != "") print "service\t" svc "\t" image }
