const fs=require('fs');const dir=process.argv[2];const f=fs.readdirSync(dir).filter(x=>x.endsWith('.cpuprofile')).sort().pop();
const p=JSON.parse(fs.readFileSync(dir+'/'+f));
const self=new Map();const byId=new Map(p.nodes.map(n=>[n.id,n]));
const cnt=new Map();for(const s of p.samples){cnt.set(s,(cnt.get(s)||0)+1)}
const tot=p.samples.length;
for(const [id,c] of cnt){const n=byId.get(id);const k=n.callFrame.functionName+' '+(n.callFrame.url||'').split('/').slice(-2).join('/')+':'+n.callFrame.lineNumber;self.set(k,(self.get(k)||0)+c)}
console.log([...self].sort((a,b)=>b[1]-a[1]).slice(0,+(process.argv[3]||20)).map(([k,c])=>(100*c/tot).toFixed(1)+'% '+k).join('\n'))
