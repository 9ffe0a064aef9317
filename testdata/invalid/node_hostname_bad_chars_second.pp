node 'ok', 'bad!' {
}
