$s = sprintf('%s|%d|%05.2f|%x|%o|%-5s|%%|%3d', 'str', 42, 3.14159, 255, 8, 'ab', 7)
notify { $s: }
