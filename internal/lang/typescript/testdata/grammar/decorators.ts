@Component({a: 1})
class A { @Input() x!: string; accessor y = 1; #p = 2; static { init(); } }
