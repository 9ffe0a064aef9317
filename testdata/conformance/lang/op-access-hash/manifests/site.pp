$h = {'web' => {'port' => 80, 'names' => ['a', 'b']}, 'db' => 5432}
notify { "a=${h['db']} b=${h['web']['port']} c=${h['web']['names'][-1]} d=[${h['nope']}] e=${h['db', 'nope']}": }
