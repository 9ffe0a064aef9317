node "web${x}" {
}
